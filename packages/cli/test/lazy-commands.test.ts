import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/catalog.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';

const RECORD_LOADS = join(REPO_ROOT, 'packages/cli/test/support/record-loads.mjs');

/** The command modules (packages/cli's commands/ folder, built or source) `mcp-fw <args>` loaded. */
async function commandModulesLoaded(args: string[]): Promise<string[]> {
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
      .map((url) => /\/packages\/cli\/(?:dist|src)\/commands\/([^/]+)\.(?:js|ts)$/.exec(url)?.[1])
      .filter((name): name is string => name !== undefined && name !== 'catalog')
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the CLI loads only the command typed', () => {
  it('each line of the command catalog matches the command its module registers', async () => {
    const help = new Help();
    for (const entry of COMMANDS) {
      const program = new Command('mcp-fw');
      (await entry.load())(program);
      const command = program.commands.find((c) => c.name() === entry.name);
      expect(command, entry.name).toBeDefined();
      expect(help.subcommandTerm(command!)).toBe(entry.term);
      expect(command!.description()).toBe(entry.description);
    }
  });

  it('mcp-fw --help loads no command module, and lists every command', async () => {
    expect(await commandModulesLoaded(['--help'])).toEqual(['options']);
    const run = await runCli(['--help'], REPO_ROOT);
    for (const entry of COMMANDS) expect(run.stdout).toContain(`  ${entry.term}  `);
  });

  it('mcp-fw inspect --help loads the inspect command only', async () => {
    const loaded = await commandModulesLoaded(['inspect', '--help']);
    expect(loaded).toContain('inspect');
    for (const entry of COMMANDS.filter((c) => c.name !== 'inspect'))
      expect(loaded).not.toContain(entry.name === 'auth' ? 'auth-doctor' : entry.name);
  });
});
