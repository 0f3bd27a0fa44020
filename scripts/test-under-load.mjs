#!/usr/bin/env node
// Runs the timing-sensitive test files (those that wait for child processes to start, reload
// and answer; some in npm test, most in npm run test:integration) beside a CPU hog: busy-loop
// processes are added until the machine's load is the target (8 by default; on 2 cores, four
// processes wanting each core), the 1-minute load average is let climb to it, and vitest runs
// the files. They must pass as on a quiet machine: their waits watch for the event and stretch
// their deadlines with the load (test-support/patience.ts).
// Builds nothing: `npm test` (or `npx tsc -b`) first.
//
//   node scripts/test-under-load.mjs [--load 8] [vitest filters…]
//
// Writes .vitest-results-under-load.json (for scripts/test-summary.mjs); prints the load seen
// during the run; exits 1 if vitest failed or the mean load stayed under 3/4 of the target. The
// hogs are killed however the run ends.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const RESULTS = join(ROOT, '.vitest-results-under-load.json');

/** Files whose tests start servers, CLIs or watchers as child processes and wait on them. */
const TIMING_SENSITIVE = [
  'packages/core/test/stdio-lifecycle.test.ts',
  'packages/core/test/stdio-bad-input.test.ts',
  'packages/core/test/issue-16-stdio-errors.test.ts',
  'packages/core/test/official-client-eras.test.ts',
  'packages/cli/test/dev-type-schemas.test.ts',
  'packages/cli/test/dev-reload.test.ts',
  'packages/cli/test/dev-http.test.ts',
  'packages/typescript/test/watch.test.ts',
  'examples/files/test/official-clients.test.ts',
];

const args = process.argv.slice(2);
let target = 8;
const at = args.indexOf('--load');
if (at >= 0) {
  target = Number(args[at + 1]);
  args.splice(at, 2);
  if (!(target > 0)) throw new Error('--load takes a positive number (a load average)');
}
const files = args.length > 0 ? args : TIMING_SENSITIVE;

/** Processes running or runnable at this instant, this one left out (Linux); else none. */
function runningNow() {
  try {
    const [running] = readFileSync('/proc/loadavg', 'utf8').split(' ')[3].split('/');
    return Math.max(0, Number(running) - 1);
  } catch {
    return 0;
  }
}

const hogs = [];
const stopHogs = () => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopHogs();
    process.exit(1);
  });
}

// Only what the machine lacks: a shared machine that is busy now gets fewer hogs. Busy *now*:
// the 1-minute average still carries the work of a step that just ended (CI's previous one),
// and hogs counted against it would leave the run under its target.
const wanted = Math.max(0, Math.round(target - runningNow()));
for (let i = 0; i < wanted; i++) {
  hogs.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}
const cores = availableParallelism();
const load = () => loadavg()[0].toFixed(1);
process.stdout.write(
  `=== ${wanted} busy-loop processes on ${cores} cores, for a load average of ${target} ===\n`,
);

// The 1-minute average follows the hogs with a minute's lag: wait for it (at most 3 minutes).
const climbUntil = Date.now() + 180_000;
while (loadavg()[0] < target - 1 && Date.now() < climbUntil) {
  await new Promise((r) => setTimeout(r, 5_000));
  process.stdout.write(`load average ${load()}\n`);
}

const seen = [];
const sampler = setInterval(() => seen.push(loadavg()[0]), 5_000);
rmSync(RESULTS, { force: true });
process.stdout.write(`=== vitest, load average ${load()}: ${files.join(' ')} ===\n`);
const vitest = spawn(
  process.execPath,
  [
    VITEST,
    'run',
    ...files,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${RESULTS}`,
  ],
  // Every file, wherever it is listed: most of these are in vitest.integration.ts, which npm
  // test's own selection leaves out.
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MCP_FW_TESTS: 'all' } },
);
const code = await new Promise((done) => vitest.once('close', (status) => done(status ?? 1)));
clearInterval(sampler);
stopHogs();
const low = Math.min(...seen).toFixed(1);
const high = Math.max(...seen).toFixed(1);
const mean = (seen.reduce((a, b) => a + b, 0) / Math.max(1, seen.length)).toFixed(1);
process.stdout.write(
  `=== the load average during the run: ${seen.length ? `${low} to ${high}, mean ${mean}` : 'not sampled (under 5 s)'}; vitest exit ${code} ===\n`,
);
// A run the hogs never loaded proves nothing: that is a failure too.
const loaded = seen.length > 0 && Number(mean) >= target * 0.75;
if (!loaded)
  process.stdout.write(`the load average stayed under ${target * 0.75}: not a run under load\n`);
process.exitCode = code === 0 && loaded ? 0 : 1;
