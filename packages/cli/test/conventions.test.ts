import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';

const cwd = mkdtempSync(join(tmpdir(), 'mcp-fw-cli-conventions-'));
const COMMANDS = ['dev', 'inspect', 'call', 'build', 'start', 'install', 'proxy', 'openapi'];

/** Runs the CLI on a terminal (`script` from util-linux allocates one) and returns what it showed. */
function onTerminal(args: string, env: Record<string, string>): string {
  try {
    return execFileSync('script', ['-qc', `${process.execPath} ${BIN} ${args}`, '/dev/null'], {
      cwd,
      env: { ...process.env, ...env },
    }).toString();
  } catch (error) {
    return String((error as { stdout: Buffer }).stdout);
  }
}

describe('mcp-fw conventions', () => {
  it.each(COMMANDS)('%s --help shows usage and examples', async (command) => {
    const run = await runCli([command, '--help'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: mcp-fw ${command} `));
    expect(run.stdout).toContain('\nExamples:\n');
    expect(run.stdout).toContain(`  $ mcp-fw ${command}`);
  });

  it('--help lists every command, with examples', async () => {
    const run = await runCli(['--help'], cwd);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect(run.stdout).toContain('\nExamples:\n');
  });

  it('exits with status 2 on usage errors and 1 on failures, each with one sentence and the fix', async () => {
    expect(await runCli(['deploy'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown command 'deploy'\n(run mcp-fw <command> --help for usage and examples)\n",
    });
    expect(await runCli(['dev', 'src/missing.ts'], cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: src/missing.ts does not exist.\nPass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).\n',
    });
    expect(await runCli(['build'], cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: There is no tsconfig.json here.\nRun mcp-fw build in the directory of your project (where tsconfig.json is), or pass --project <tsconfig>.\n',
    });
  });

  it('colours only on a terminal, and not with NO_COLOR', async () => {
    const piped = await runCli(['inspect', 'missing.ts'], cwd, { ...cliEnv(), NO_COLOR: '' });
    expect(piped.stderr).not.toContain('\x1b[');
    const env = { NO_COLOR: '' };
    expect(onTerminal('inspect missing.ts', env)).toBe(
      '\x1b[31mmcp-fw: missing.ts does not exist.\x1b[39m\r\nPass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).\r\n',
    );
    expect(onTerminal('inspect missing.ts', { NO_COLOR: '1' })).toBe(
      'mcp-fw: missing.ts does not exist.\r\nPass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).\r\n',
    );
  });
});
