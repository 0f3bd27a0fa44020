import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mcpFwSchemasEsbuild, mcpFwSchemasVite } from '../src/index.ts';
import { schemas } from './fixtures/plain/src/schemas.gen.ts';

const FIXTURE = fileURLToPath(new URL('fixtures/plain/', import.meta.url));
// A copy without the generated module: each build has to write it first.
const dir = fileURLToPath(new URL(`../.cache/plugins-${process.pid}/`, import.meta.url));

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  cpSync(FIXTURE, dir, {
    recursive: true,
    filter: (src) => !src.includes('/dist') && !src.endsWith('schemas.gen.ts'),
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function toolsOf(entry: string) {
  const client = new Client({ name: 'plugins', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      cwd: dir,
      stderr: 'pipe',
    }),
  );
  try {
    return (await client.listTools()).tools.map((t) => [t.name, t.inputSchema]);
  } finally {
    await client.close();
  }
}

const expected = Object.entries(schemas.Trips)
  .filter(([name]) => ['plan', 'miles', 'schedule'].includes(name))
  .map(([name, entry]) => [name, (entry as { input: unknown }).input]);

it('mcpFwSchemasEsbuild() writes the schemas module before esbuild reads it', async () => {
  rmSync(`${dir}src/schemas.gen.ts`, { force: true });
  await build({
    entryPoints: [`${dir}src/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    outfile: `${dir}dist/esbuild.mjs`,
    logLevel: 'silent',
    plugins: [mcpFwSchemasEsbuild({ tsconfig: `${dir}tsconfig.json` })],
  });
  expect(existsSync(`${dir}src/schemas.gen.ts`)).toBe(true);
  expect(await toolsOf('dist/esbuild.mjs')).toEqual(expected);
});

it('mcpFwSchemasVite() writes it at buildStart', async () => {
  rmSync(`${dir}src/schemas.gen.ts`, { force: true });
  await viteBuild({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    oxc: { decorator: { legacy: true } },
    plugins: [mcpFwSchemasVite({ tsconfig: `${dir}tsconfig.json` })],
    build: { ssr: 'src/main.ts', outDir: 'dist/vite', target: 'es2022', emptyOutDir: true },
  });
  expect(existsSync(`${dir}src/schemas.gen.ts`)).toBe(true);
  expect(await toolsOf('dist/vite/main.js')).toEqual(expected);
});
