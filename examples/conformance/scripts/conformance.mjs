#!/usr/bin/env node
// Runs the official MCP conformance suite (0.2.0-alpha.12) against the conformance fixture over
// Streamable HTTP. Builds nothing: `npx tsc -b` (or `npm test`) must have built dist/ first.
//
//   node examples/conformance/scripts/conformance.mjs
//
// Four runs, one fresh fixture process for all of them:
//   1. --requirements 2025-11-25                the frozen, scored 2025-11-25 set (30 scenarios)
//   2. --requirements 2026-07-28                the frozen, scored 2026-07-28 set (37 scenarios),
//                                               plus its unscored ones (the tasks extension),
//                                               which must pass too
//   3. --suite all --spec-version 2026-07-28    every scenario at the 2026 wire, pending included
//   4. --suite all                              every scenario (multi-era ones at the 2025 wire),
//                                               extensions included
// Runs 3 and 4 pass the baseline (--expected-failures), an empty list (nothing may fail),
// which turns any WARNING into a failure. Prints each run's output, then a summary; exits 1 if any
// run fails (or the fixture dies).
//
//   --runtime bun|deno     serve the same dist/main.js on Bun or Deno (the binaries from the root
//                          devDependencies) instead of this Node; the start:bun / start:deno
//                          commands of package.json
//   --runtime workers      serve dist/worker.js (a Cloudflare module worker) in workerd, legacy
//                          sessions in Durable Objects; package.json's start:workers
//   --runtime serverless   serve dist/serverless.js (a serverless function's default export) on a
//                          local serverless platform (scripts/serverless-host.mjs: a router, three
//                          instances recycled every few requests), legacy sessions in Redis;
//                          package.json's start:serverless
//   --requirements-only    runs 1 and 2 only
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureConformanceSuite } from '../../../scripts/toolchain.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const EXAMPLE = resolve(HERE, '..');
const ROOT = resolve(EXAMPLE, '../..');
const FIXTURE = join(EXAMPLE, 'dist/main.js');
const BASELINE = join(EXAMPLE, 'conformance-baseline.yaml');
// The suite needs Node >= 22 (it imports fs.globSync); the fixture runs on this Node (or --runtime). Both the
// suite and its Node 22 live in .cache/, installed (and announced) on first use.
const { node: NODE22, suite: SUITE } = ensureConformanceSuite();

const argv = process.argv.slice(2);
const runtimeAt = argv.indexOf('--runtime');
const RUNTIME = runtimeAt >= 0 ? argv[runtimeAt + 1] : 'node';
// A serverless platform starts a cold instance every few requests (each imports the fixture and
// connects to Redis): a run takes minutes on a loaded machine.
const RUN_TIMEOUT_MS = RUNTIME === 'serverless' ? 600_000 : 120_000;
const BIN = join(ROOT, 'node_modules/.bin');
// The fixture runs as package.json's start / start:bun / start:deno script runs it (after its
// `tsc -b &&`: this runner builds nothing), so the suite checks the documented command.
const { scripts } = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8'));
const FIXTURE_COMMANDS = Object.fromEntries(
  ['node', 'bun', 'deno', 'workers', 'serverless'].map((runtime) => {
    const script = scripts[runtime === 'node' ? 'start' : `start:${runtime}`];
    const [command, ...args] = script.replace(/^tsc -b && /, '').split(' ');
    return [runtime, [command === 'node' ? process.execPath : join(BIN, command), args]];
  }),
);
if (!FIXTURE_COMMANDS[RUNTIME])
  fail(`unknown --runtime ${RUNTIME}; use node, bun, deno, workers or serverless`);

const RUNS = [
  { label: 'requirements 2025-11-25', args: ['--requirements', '2025-11-25'] },
  { label: 'requirements 2026-07-28', args: ['--requirements', '2026-07-28'] },
  {
    label: 'suite all, spec 2026-07-28',
    args: ['--suite', 'all', '--spec-version', '2026-07-28', '--expected-failures', BASELINE],
  },
  { label: 'suite all, with baseline', args: ['--suite', 'all', '--expected-failures', BASELINE] },
].filter((run) => !argv.includes('--requirements-only') || run.args[0] === '--requirements');

if (!existsSync(FIXTURE)) fail(`${FIXTURE} is missing; build first: npx tsc -b`);

const fixture = await startFixture();
const results = [];
try {
  for (const run of RUNS) {
    const { code, output } = await runSuite(['server', '--url', fixture.url, ...run.args]);
    process.stdout.write(`\n=== conformance run: ${run.label} ===\n${output}`);
    results.push({ ...run, code, summary: summarise(output) });
  }
} finally {
  await fixture.stop();
}

process.stdout.write('\n=== conformance summary ===\n');
let problemCount = 0;
for (const run of results) {
  const { counts, problems } = report(run);
  problemCount += problems.length;
  process.stdout.write(
    `[${run.label}] exit ${run.code}; ${counts}; ${run.summary.total ?? 'no Total line'}\n`,
  );
  for (const line of problems) process.stdout.write(`  ${line}\n`);
}
if (fixture.died) process.stdout.write(`fixture exited early: ${fixture.died}\n`);
const clean = results.every((r) => r.code === 0) && problemCount === 0 && !fixture.died;
process.exitCode = clean ? 0 : 1;

/** One run's counts, and what failed that nothing excuses. */
function report({ args, summary }) {
  const { scenarios, notScored, baseline } = summary;
  const failed = [...scenarios].filter(([, s]) => !s.ok);
  if (!args.includes('--requirements')) {
    // With a baseline, failures are problems only when the baseline does not expect them.
    const counts = `scenarios: ${scenarios.size - failed.length} passed, ${failed.length} failed`;
    return { counts, problems: baseline };
  }
  // The exit code covers the scored set only; unscored scenarios must pass too, the tasks
  // extension's included.
  const scoredFailed = failed.filter(([name]) => !notScored.has(name));
  const unscoredFailed = failed.filter(([name]) => notScored.has(name));
  const scored = scenarios.size - notScored.size;
  const problems = [
    ...scoredFailed.map(([, s]) => `failed: ${s.line}`),
    ...unscoredFailed.map(([, s]) => `failed (not scored): ${s.line}`),
  ];
  const counts =
    `scored: ${scored - scoredFailed.length} passed, ${scoredFailed.length} failed; ` +
    `not scored: ${notScored.size} run, ${unscoredFailed.length} failing`;
  return { counts, problems };
}

/** Starts the fixture on a free port (`--port 0`) and waits for the URL it prints on stderr. */
function startFixture() {
  const [command, args] = FIXTURE_COMMANDS[RUNTIME];
  const child = spawn(command, [...args, '--http', '--port', '0'], {
    cwd: EXAMPLE,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const handle = { url: '', died: '', stop };
  // Never leave the fixture running: not on fail(), not when the runner itself is stopped.
  process.once('exit', () => child.kill('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));
  let stderr = '';
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(
      () => rejectStart(new Error(`fixture did not listen within 20 s:\n${stderr}`)),
      20_000,
    );
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match && !handle.url) {
        handle.url = match[1];
        clearTimeout(timer);
        resolveStart(handle);
      }
      // Keep the fixture's own diagnostics visible; the suite's output is printed per run.
      if (handle.url) process.stderr.write(chunk.replace(/^(?=.)/gm, '[fixture] '));
    });
    child.once('exit', (code, signal) => {
      handle.died = `code ${code}, signal ${signal}`;
      clearTimeout(timer);
      rejectStart(new Error(`fixture exited (${handle.died}) before listening:\n${stderr}`));
    });
  }).catch((error) => fail(error.message));

  function stop() {
    if (handle.died) return Promise.resolve();
    child.removeAllListeners('exit');
    return new Promise((done) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        done();
      });
      child.kill('SIGTERM');
    });
  }
}

/** Runs the suite CLI on Node 22; resolves with its exit code and combined output. */
function runSuite(args) {
  return new Promise((done) => {
    const child = spawn(NODE22, [SUITE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[runner] killed after ${RUN_TIMEOUT_MS} ms\n`;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? `signal ${signal}`, output });
    });
  });
}

/**
 * Reads the suite's per-scenario lines (`✓ name: N passed, M failed`), the scenarios a
 * `--requirements` run lists as not scored (`  ✗ name (extension)`), its `Total:` line and the
 * baseline verdict lines (`✗ unexpected`, `✓ stale`, as printed under their headings).
 */
function summarise(output) {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const scenarioLine = /^([✓✗]) ([\w./-]+): (\d+) passed, (\d+) failed/;
  const notScoredLine = /^ {2}[✓✗] ([\w./-]+) \(([\w-]+)\)$/;
  const scenarios = new Map();
  const notScored = new Map();
  for (const line of lines) {
    const m = scenarioLine.exec(line);
    if (m) scenarios.set(m[2], { ok: m[1] === '✓' && m[4] === '0', line: line.trim() });
    const n = notScoredLine.exec(line);
    if (n) notScored.set(n[1], n[2]);
  }
  const total = lines.find((l) => l.startsWith('Total:'));
  const baseline = [];
  let section = '';
  for (const line of lines) {
    if (/^(Unexpected failures|Stale baseline entries)/.test(line)) section = line.split(' (')[0];
    else if (/^\S/.test(line)) section = '';
    else if (section && line.trim()) baseline.push(`${section}: ${line.trim()}`);
  }
  return { scenarios, notScored, total, baseline };
}

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(1);
}
