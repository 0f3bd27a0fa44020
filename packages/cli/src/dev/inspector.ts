import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'mcp-fw.js');
const INSPECTOR = '@modelcontextprotocol/inspector';

/** Options of `mcp-fw dev` that the server started under the Inspector keeps. */
export interface InspectedDev {
  readonly entry: string;
  readonly debounce: number;
  readonly grace: number;
}

/**
 * Runs the official MCP Inspector (fetched on demand through npx) with `mcp-fw dev` as its stdio
 * server, as Python's `mcp dev` does: the Inspector prints its URL, and edits hot-reload under it.
 * Resolves with the Inspector's exit code.
 */
export function runInspector(dev: InspectedDev, report: (line: string) => void): Promise<number> {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 19)) {
    report(
      `note: ${INSPECTOR} declares Node 22.19 or later; this is Node ${process.versions.node}.`,
    );
  }
  const server = [
    process.execPath,
    BIN,
    'dev',
    dev.entry,
    '--debounce',
    String(dev.debounce),
    '--grace',
    String(dev.grace),
  ];
  report(`starting ${INSPECTOR} (npx) with: mcp-fw dev ${dev.entry}`);
  return new Promise((resolveExit, reject) => {
    const child = spawn('npx', ['-y', INSPECTOR, '--', ...server], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolveExit(code ?? (signal ? 1 : 0)));
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => child.kill(signal));
  });
}
