import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/catalog.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';

const run = promisify(execFile);

const RECORD_LOADS = join(REPO_ROOT, 'packages/cli/test/support/record-loads.mjs');

/** The CLI's modules `mcp-fw <args>` loaded, as paths under dist/ or src/ without extension. */
async function cliModulesLoaded(args: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-loads-'));
  try {
    const log = join(dir, 'loads.txt');
    const env = cliEnv({
      MCP_FW_LOAD_LOG: log,
      NODE_OPTIONS: `--import ${RECORD_LOADS}`,
    });
    const run = await runCli(args, REPO_ROOT, env);
    expect(run.code, run.stderr).toBe(0);
    const urls = readFileSync(log, 'utf8').split('\n');
    // The log must show the CLI itself loading, or it proves nothing about the commands.
    expect(urls.some((url) => /\/packages\/cli\/(dist|src)\/cli\.(js|ts)$/.test(url))).toBe(true);
    return urls
      .map((url) => /\/packages\/cli\/(?:dist|src)\/(.+)\.(?:js|ts)$/.exec(url)?.[1])
      .filter((name): name is string => name !== undefined)
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the CLI loads only the command typed', () => {
  it('each line of the command catalog matches the command its module registers', async () => {
    const { args, env } = nodeEntry(join(REPO_ROOT, 'packages/cli/test/support/catalog-lines.ts'));
    const { stdout } = await run(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    expect(JSON.parse(stdout)).toEqual(
      COMMANDS.map(({ name, term, description }) => ({ name, term, description })),
    );
  });

  it('mcp-fw --help loads no command module, and lists every command', async () => {
    const commands = (await cliModulesLoaded(['--help'])).filter((m) => m.startsWith('commands/'));
    expect(commands).toEqual(['commands/catalog', 'commands/options']);
    const run = await runCli(['--help'], REPO_ROOT);
    for (const entry of COMMANDS) expect(run.stdout).toContain(`  ${entry.term}  `);
  });

  it('mcp-fw inspect --help loads the inspect command only, and not the tokenizer', async () => {
    const loaded = await cliModulesLoaded(['inspect', '--help']);
    expect(loaded).toContain('commands/inspect');
    for (const entry of COMMANDS.filter((c) => c.name !== 'inspect'))
      expect(loaded).not.toContain(
        `commands/${entry.name === 'auth' ? 'auth-doctor' : entry.name}`,
      );
    // Only inspect --tokens counts tokens: gpt-tokenizer's tables are most of inspect's start.
    expect(loaded.filter((m) => m.startsWith('tokens/'))).toEqual([]);
  });
});
