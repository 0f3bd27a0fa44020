import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance, summaryOf } from './support/conformance-runner.ts';

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

// The official conformance suite against the fixture served on Bun and on Deno, as package.json's
// start:bun and start:deno run it: the scored sets of both wires, 2026-07-28 (stateless) and
// 2025-11-25 (sessions, held in the process). About a minute per runtime on 2 cores, so a CI step
// of its own (vitest.separate.ts); runtimes.test.ts is the quick check in npm test.
beforeAll(() => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}, 600_000);

describe.each(['bun', 'deno'])('the conformance fixture on %s', (runtime) => {
  it(`passes the official conformance suite on ${runtime} at --requirements 2026-07-28 and 2025-11-25`, async () => {
    const { code, stdout, stderr } = await runConformance([
      '--runtime',
      runtime,
      '--requirements-only',
    ]);
    const runs = summaryOf(stdout);

    // What failed, by run, before the exit code: a failure then names the scenario.
    expect(
      Object.fromEntries(Object.entries(runs).map(([label, run]) => [label, run.problems])),
    ).toEqual({ 'requirements 2025-11-25': [], 'requirements 2026-07-28': [] });
    expect(
      Object.fromEntries(Object.entries(runs).map(([label, run]) => [label, run.header])),
    ).toEqual({
      'requirements 2025-11-25':
        'exit 0; scored: 30 passed, 0 failed; not scored: 3 run, 0 failing; Total: 82 passed, 0 failed',
      'requirements 2026-07-28':
        'exit 0; scored: 37 passed, 0 failed; not scored: 13 run, 0 failing; Total: 196 passed, 0 failed',
    });
    expect(code, `${stdout.slice(-4000)}\n${stderr}`).toBe(0);
  }, 240_000);
});
