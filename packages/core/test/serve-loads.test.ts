// What a stdio start through serveFromArgs loads: the HTTP transport only when `--http` asks for
// it (issue 40: a stdio start, the usual one, should not pay for node:http and its modules).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';

const RECORD_LOADS = join(REPO_ROOT, 'packages/core/test/fixtures/neutral/record-loads.mjs');
const STDIO = join(REPO_ROOT, 'packages/core/test/fixtures/serve-loads/stdio.mjs');
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};

describe('serveFromArgs: what a stdio start loads', () => {
  it('a stdio start runs no top level of the HTTP transport (node.js, transports/http, node:http)', () => {
    const run = spawnSync(process.execPath, ['--import', RECORD_LOADS, STDIO], {
      cwd: REPO_ROOT,
      input: `${JSON.stringify(INITIALIZE)}\n`,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-11-25' },
    });
    const loaded = [...run.stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]!);
    // The hook saw the start: serve.js and the stdio transport.
    expect(loaded.some((url) => url.endsWith('/core/dist/serve.js'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/core/dist/transports/stdio.js'))).toBe(true);
    expect(
      loaded.filter(
        (url) =>
          url.endsWith('/core/dist/node.js') ||
          url.endsWith('/core/dist/http.js') ||
          url.includes('/transports/http/') ||
          url === 'node:http',
      ),
    ).toEqual([]);
  });
});
