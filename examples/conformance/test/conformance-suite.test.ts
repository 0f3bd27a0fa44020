import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { runConformance, summaryOf } from './support/conformance-runner.ts';

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

// The suite and its Node 22 are installed into .cache/ on first use. Done here, on the terminal's
// stderr, so that the announcement of the download is seen, and the download's time is not
// counted against the runner's own timeout.
beforeAll(() => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}, 600_000);

it('passes the official conformance suite at both wires (alpha.12), the tasks and skills extensions included', async () => {
  const { code, stdout, stderr } = await runConformance();
  const runs = summaryOf(stdout);

  // Failing scenarios and unexpected or stale baseline entries, by run, before the exit code:
  // a failure then names what failed instead of only "expected 1 to be 0".
  expect(
    Object.fromEntries(Object.entries(runs).map(([label, run]) => [label, run.problems])),
  ).toEqual({
    'requirements 2025-11-25': [],
    'requirements 2026-07-28': [],
    'suite all, spec 2026-07-28': [],
    'suite all, with baseline': [],
  });
  expect(
    Object.fromEntries(Object.entries(runs).map(([label, run]) => [label, run.header])),
  ).toEqual({
    'requirements 2025-11-25':
      'exit 0; scored: 30 passed, 0 failed; not scored: 3 run, 0 failing; Total: 82 passed, 0 failed',
    'requirements 2026-07-28':
      'exit 0; scored: 37 passed, 0 failed; not scored: 13 run, 0 failing; Total: 196 passed, 0 failed',
    'suite all, spec 2026-07-28':
      'exit 0; scenarios: 40 passed, 0 failed; Total: 152 passed, 0 failed',
    'suite all, with baseline':
      'exit 0; scenarios: 65 passed, 0 failed; Total: 274 passed, 0 failed',
  });
  expect(code, `${stdout.slice(-4000)}\n${stderr}`).toBe(0);
}, 240_000);
