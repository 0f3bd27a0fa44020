#!/usr/bin/env node
// Runs the official MCP conformance suite (server mode) THROUGH @mcp-fw/proxy against the
// conformance fixture (examples/conformance), in every direction: the suite as a 2026-07-28 or a
// 2025-11-25 client (--requirements, the scored sets and the unscored scenarios they run), the
// fixture pinned to 2025-06-18, 2025-11-25 or 2026-07-28 upstream. (The suite cannot be a
// 2024-11-05 client: test/conformance-2024-11-05.test.ts covers that direction.)
//
// Builds nothing: `npx tsc -b` must have built dist/ first. RUN=2026-07-28 (or 2025-11-25)
// and UPSTREAM=2025-06-18 (…) pick the runs; SCENARIO=<name> one scenario, verbose; OUT=<dir>
// keeps each check's details. Prints each run's output and a
// summary line per run (`[label] exit N; scored: P passed, F failed; …`).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureConformanceSuite } from '../../../scripts/toolchain.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = join(ROOT, 'examples/conformance/dist/main.js');
const { node: NODE22, suite: SUITE } = ensureConformanceSuite();
const { createProxy } = await import('@mcp-fw/proxy');
const { serveHttp } = await import('@mcp-fw/core/node');

// The fixture's task tools, as a gateway's `tasks` setting declares them. A 2025-06-18 server
// cannot say which of its tools are tasks (nor that failing_job must be one), so the proxy is
// told and runs them as tasks of its own. Through a 2025-11-25 upstream only test_tool_with_task
// needs saying: the 2025-11-25 wire has no "deferred" (ask in the request, then become a task).
const DEFERRED = { test_tool_with_task: { mode: 'required', deferred: true } };
const FIXTURE_TASKS = {
  slow_compute: 'optional',
  failing_job: 'required',
  protocol_error_job: 'optional',
  confirm_delete: 'optional',
  multi_input: 'optional',
  ...DEFERRED,
};
const TASKS = { '2025-06-18': FIXTURE_TASKS, '2025-11-25': DEFERRED };

// Every caller era the suite speaks × every upstream revision the fixture can be pinned to.
const RUNS = ['2026-07-28', '2025-11-25'].flatMap((requirements) =>
  ['2025-06-18', '2025-11-25', '2026-07-28'].map((upstream) => ({
    label: `requirements ${requirements} → ${upstream}`,
    requirements,
    upstream,
  })),
);

// Against an official SDK v2 server (scripts/sdk-v2-fixture.mjs, sessionful, 2025-11-25): the
// suite as a 2026-07-28 client, one scenario at a time, for the scenarios of the 2026-07-28
// required set whose fixtures it serves or that the proxy itself answers.
const SDK_V2_RUN = 'SDK v2 2026-07-28 → 2025-11-25';
const SDK_V2_SCENARIOS = [
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'sep-2164-resource-not-found',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'caching',
];

let failed = false;
if (!process.env.RUN || process.env.RUN === 'sdk-v2') await runSdkV2();
const fixture = await startFixture();
try {
  for (const run of RUNS.filter((r) => !process.env.RUN || r.requirements === process.env.RUN)) {
    if (process.env.UPSTREAM && run.upstream !== process.env.UPSTREAM) continue;
    const proxy = await createProxy(fixture.url, {
      connect: { protocolVersion: run.upstream },
      tasks: TASKS[run.upstream],
      onWarning: (m) => process.stderr.write(`[proxy] ${m}\n`),
    });
    const front = await serveHttp(proxy, { port: 0 });
    try {
      const { code, output } = await runSuite([
        'server',
        '--url',
        front.url,
        ...(process.env.SCENARIO
          ? [
              '--scenario',
              process.env.SCENARIO,
              '--spec-version',
              run.requirements,
              '--verbose',
              '--force',
            ]
          : ['--requirements', run.requirements]),
        // OUT=<dir>: the suite writes each check's details there (for a failure's cause).
        ...(process.env.OUT
          ? ['-o', join(process.env.OUT, `${run.requirements}-${run.upstream}`)]
          : []),
      ]);
      process.stdout.write(`\n=== conformance run: ${run.label} ===\n${output}`);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its output
      const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
      const scored = lines.filter((l) => /^[✓✗] [\w./-]+: \d+ passed, \d+ failed/.test(l));
      const bad = scored.filter((l) => l.startsWith('✗') || !/ 0 failed/.test(l));
      const passed = scored.filter((l) => !bad.includes(l)).map((l) => l.slice(2, l.indexOf(':')));
      process.stdout.write(
        `\n[${run.label}] exit ${code}; scenarios: ${scored.length - bad.length} passed, ${bad.length} failed; ${lines.find((l) => l.startsWith('Total:')) ?? ''}\n${bad.map((l) => `  ${l}`).join('\n')}\n[${run.label}] passed: ${passed.join(' ')}\n`,
      );
      if (code !== 0) failed = true;
    } finally {
      await front.close();
      await proxy.close();
    }
  }
} finally {
  fixture.child.kill('SIGTERM');
}
process.exit(failed ? 1 : 0);

function startFixture() {
  const child = spawn(process.execPath, [FIXTURE, '--http', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  let stderr = '';
  return new Promise((done, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) done({ url: match[1], child });
    });
    child.once('exit', () => reject(new Error(`fixture exited:\n${stderr}`)));
  });
}

function runSuite(args) {
  return new Promise((done) => {
    const child = spawn(NODE22, [SUITE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

async function runSdkV2() {
  const { startSdkV2Fixture } = await import('./sdk-v2-fixture.mjs');
  const sdk = await startSdkV2Fixture();
  const proxy = await createProxy(sdk.url, {
    onWarning: (m) => process.stderr.write(`[proxy] ${m}\n`),
  });
  const front = await serveHttp(proxy, { port: 0 });
  const passed = [];
  const bad = [];
  try {
    const only = process.env.SCENARIO;
    for (const scenario of SDK_V2_SCENARIOS.filter((s) => !only || s === only)) {
      const { code, output } = await runSuite([
        'server',
        '--url',
        front.url,
        '--scenario',
        scenario,
        '--spec-version',
        '2026-07-28',
        ...(process.env.OUT ? ['-o', join(process.env.OUT, 'sdk-v2')] : []),
      ]);
      process.stdout.write(`\n=== conformance run: ${SDK_V2_RUN}, ${scenario} ===\n${output}`);
      // One scenario prints `Passed: P/T, F failed, W warnings`.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its output
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(plain);
      if (code === 0 && m && m[1] === m[2] && m[3] === '0') passed.push(scenario);
      else bad.push(`✗ ${scenario}: exit ${code}, ${m ? m[0] : 'no result line'}`);
    }
  } finally {
    await front.close();
    await proxy.close();
    await sdk.close();
  }
  if (bad.length > 0) failed = true;
  process.stdout.write(
    `\n[${SDK_V2_RUN}] exit ${bad.length > 0 ? 1 : 0}; scenarios: ${passed.length} passed, ${bad.length} failed\n${bad.map((l) => `  ${l}`).join('\n')}\n[${SDK_V2_RUN}] passed: ${passed.join(' ')}\n`,
  );
}
