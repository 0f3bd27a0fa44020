import { expect, it } from 'vitest';
import { detectPackageManager, installCommand, runScript } from '../src/package-manager.ts';

it('reads the package manager from npm_config_user_agent', () => {
  expect(detectPackageManager('npm/11.19.1 node/v20.20.2 linux x64 workspaces/false')).toBe('npm');
  expect(detectPackageManager('pnpm/9.15.0 npm/? node/v20.20.2 linux x64')).toBe('pnpm');
  expect(detectPackageManager('yarn/1.22.22 npm/? node/v20.20.2 linux x64')).toBe('yarn');
  expect(detectPackageManager('bun/1.2.0 npm/? node/v22.6.0 linux x64')).toBe('bun');
  expect(detectPackageManager(undefined)).toBe('npm');
  expect(detectPackageManager('deno/2.1.0')).toBe('npm');
});

it('spells install and script commands the way each one is typed', () => {
  expect(['npm', 'pnpm', 'yarn', 'bun'].map((pm) => installCommand(pm as 'npm').join(' '))).toEqual(
    ['npm install', 'pnpm install', 'yarn', 'bun install'],
  );
  expect(
    ['npm', 'pnpm', 'yarn', 'bun'].map((pm) => [
      runScript(pm as 'npm', 'dev'),
      runScript(pm as 'npm', 'test'),
    ]),
  ).toEqual([
    ['npm run dev', 'npm test'],
    ['pnpm dev', 'pnpm test'],
    ['yarn dev', 'yarn test'],
    ['bun run dev', 'bun run test'],
  ]);
});
