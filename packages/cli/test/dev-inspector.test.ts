import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { fixtureProject } from './support/temp-project.ts';

// The Inspector cannot be fetched here (and needs Node 22.19+): a stand-in `npx` on the PATH
// records the command mcp-fw hands it, which is what the real one would run.
const project = fixtureProject('greeter');
afterAll(() => project.remove());

function fakeNpx(): { dir: string; argsFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-fake-npx-'));
  const argsFile = join(dir, 'args.txt');
  writeFileSync(join(dir, 'npx'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${argsFile}"\nexit 7\n`);
  chmodSync(join(dir, 'npx'), 0o755);
  return { dir, argsFile };
}

describe('mcp-fw dev --inspector', () => {
  it('runs the MCP Inspector through npx with mcp-fw dev as its stdio server', async () => {
    const npx = fakeNpx();
    const env = cliEnv({ PATH: `${npx.dir}:${process.env.PATH}` });
    const run = await runCli(
      ['dev', 'src/server.ts', '--inspector', '--debounce', '80'],
      project.dir,
      env,
    );
    expect(run.code).toBe(7);
    expect(readFileSync(npx.argsFile, 'utf8').split('\n').slice(0, -1)).toEqual([
      '-y',
      '@modelcontextprotocol/inspector',
      '--',
      process.execPath,
      BIN,
      'dev',
      project.path('src/server.ts'),
      '--debounce',
      '80',
      '--grace',
      '10000',
    ]);
    expect(run.stderr.split('\n').at(-2)).toBe(
      `mcp-fw dev starting @modelcontextprotocol/inspector (npx) with: mcp-fw dev ${project.path('src/server.ts')}`,
    );
  });

  it('refuses --http with --inspector, saying what to do', async () => {
    expect(await runCli(['dev', 'src/server.ts', '--inspector', '--http'], project.dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: --inspector and --http cannot be combined.\nThe Inspector runs mcp-fw dev over stdio itself: drop --http.\n',
    });
  });
});
