#!/usr/bin/env node
// Runs the official MCP conformance suite's scored sets (--requirements 2025-11-25 and
// --requirements 2026-07-28) and every scenario (--suite all: the tasks extension's included,
// so polls, answers and cancels land on nodes other than the one running the task) against the
// conformance fixture deployed as a cluster: a
// redis-server of its own, three fixture processes (`--http --redis <url>`) and HAProxy
// round-robin in front of them, no affinity. Needs redis-server and haproxy (Debian;
// scripts/system-packages.sh installs them) and a build (`npx tsc -b`).
//
//   node packages/redis/scripts/conformance-cluster.mjs
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureConformanceSuite } from '../../../scripts/toolchain.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = join(ROOT, 'examples/conformance/dist/main.js');
const RUNS = [
  ['requirements 2025-11-25', ['--requirements', '2025-11-25']],
  ['requirements 2026-07-28', ['--requirements', '2026-07-28']],
  ['suite all', ['--suite', 'all']],
];

if (!existsSync(FIXTURE)) fail(`${FIXTURE} is missing; build first: npx tsc -b`);
for (const bin of ['redis-server', 'haproxy'])
  try {
    execFileSync('sh', ['-c', `command -v ${bin} || test -x /usr/sbin/${bin}`]);
  } catch {
    fail(`${bin} is not installed (bash scripts/system-packages.sh installs it)`);
  }
const { node: NODE22, suite: SUITE } = ensureConformanceSuite();
const children = [];
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

const redisPort = await freePort();
await start(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  /Ready to accept/,
);
const nodes = [];
for (let i = 0; i < 3; i++) {
  const port = await freePort();
  // A `retry:` hint on priming events lets the suite's SSE polling scenario see one (as main.ts).
  await start(
    process.execPath,
    [FIXTURE, '--http', '--port', String(port), '--redis', `redis://127.0.0.1:${redisPort}`],
    /listening on/,
  );
  nodes.push(port);
}
const lbPort = await freePort();
const dir = mkdtempSync(join(tmpdir(), 'mcp-conformance-haproxy-'));
writeFileSync(
  join(dir, 'haproxy.cfg'),
  [
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    'frontend mcp',
    `  bind 127.0.0.1:${lbPort}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    ...nodes.map((p, i) => `  server n${i + 1} 127.0.0.1:${p}`),
    '',
  ].join('\n'),
);
const haproxy = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
children.push(spawn(haproxy, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' }));
await new Promise((r) => setTimeout(r, 500));
const url = `http://127.0.0.1:${lbPort}/mcp`;

let clean = true;
const lines = [];
for (const [label, args] of RUNS) {
  const { code, output } = await runSuite(['server', '--url', url, ...args]);
  process.stdout.write(
    `\n=== conformance through HAProxy (3 nodes, Redis): ${label} ===\n${output}`,
  );
  const text = stripVTControlCharacters(output);
  const { passed, scored } = scoredCounts(text);
  lines.push(`[${label}] exit ${code}; scored ${passed}/${scored} passed`);
  if (code !== 0) clean = false;
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\n=== summary ===\n${lines.join('\n')}\n`);
process.exit(clean ? 0 : 1);

/** Scenarios of the scored set (those not listed under "Not scored") and how many passed. */
function scoredCounts(text) {
  const notScored = new Set(
    [...text.matchAll(/^ {2}[✓✗] ([\w./-]+) \([\w-]+\)$/gm)].map((m) => m[1]),
  );
  let passed = 0;
  let scored = 0;
  for (const m of text.matchAll(/^([✓✗]) ([\w./-]+): (\d+) passed, (\d+) failed/gm)) {
    if (notScored.has(m[2])) continue;
    scored++;
    if (m[1] === '✓' && m[4] === '0') passed++;
  }
  return { passed, scored };
}

function freePort() {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

function start(command, args, ready) {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((done, failStart) => {
    let text = '';
    const on = (chunk) => {
      text += chunk;
      if (ready.test(text)) done(child);
    };
    child.stdout.setEncoding('utf8').on('data', on);
    child.stderr.setEncoding('utf8').on('data', on);
    child.once('exit', (code) => failStart(new Error(`${command} exited (${code}):\n${text}`)));
  }).catch((error) => fail(error.message));
}

function runSuite(args) {
  return new Promise((done) => {
    const child = spawn(NODE22, [SUITE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? `signal ${signal}`, output });
    });
  });
}

function fail(message) {
  process.stderr.write(`conformance-cluster: ${message}\n`);
  process.exit(1);
}
