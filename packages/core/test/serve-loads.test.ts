// What a stdio start through serveFromArgs loads: node:http only when `--http` asks for it
// (issue 40: a stdio start, the usual one, should not pay for Node's HTTP modules).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initializeRequest } from '../../../test-support/frames.ts';
import { REPO_ROOT } from './support/paths.ts';

const STDIO = join(REPO_ROOT, 'packages/core/test/fixtures/serve-loads/stdio.mjs');
const INITIALIZE = initializeRequest();

describe('serveFromArgs: what a stdio start loads', () => {
  it('a stdio start loads no node:http: serveHttp requires it when it listens', () => {
    const run = spawnSync(process.execPath, [STDIO], {
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
    const builtins = [...run.stderr.matchAll(/^builtin (\S+)$/gm)].map((m) => m[1]!);
    // The fixture reported Node's built-ins: the stdio start's own are among them.
    expect(builtins).toContain('fs');
    expect(builtins.filter((name) => /http/.test(name))).toEqual([]);
  });
});
