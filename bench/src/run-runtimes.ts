// The same mcp-fw server on Node, Bun, Deno and Cloudflare's workerd, in one run (issues 38
// and 40): server CPU per call and calls per second over Streamable HTTP, legacy (2025-11-25
// sessions) and 2026-07-28 (stateless) calls, each against the bare node:http floor measured in
// the same rounds; cold start to the first initialize answer; bundle sizes per target.
// Usage: `npm run bench:runtimes` (builds first). Not a test: it only reports.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '@mcp-fw/cli/bundle';
import { envInt } from './config.js';
import { LegacySession, modernAdd, openConnection, type Connection } from './http-client.js';
import { killHttpServers, startHttpServer, type HttpServerProcess } from './http-proc.js';
import { load, type Load } from './load.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, idleShare, Interference } from './proc.js';
import {
  firstInitialize,
  killRuntimeProcesses,
  prepareWorker,
  RUNTIMES,
  startRedisServer,
  startScript,
  startServerlessInstance,
  startWorkerd,
  type RuntimeCommand,
  type StartedServer,
} from './runtime-procs.js';
import { reportHeader, runScript, writeReport } from './script.js';
import { median, withTimeout } from './stats.js';

const config = {
  connections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  // Pipelined calls per connection, as in bench:http: the server, not the client, is the bottleneck.
  depth: envInt('BENCH_HTTP_DEPTH', 4),
  warmupCalls: envInt('BENCH_RUNTIMES_WARMUP_CALLS', 10_000),
  // Per subject, era and round: about 80 clock ticks of server CPU even for the floor (the
  // schedstat column cross-checks at nanosecond resolution). workerd, about ten times the
  // floor's CPU per call, takes a quarter as many.
  calls: envInt('BENCH_RUNTIMES_CALLS', 10_000),
  rounds: envInt('BENCH_RUNTIMES_ROUNDS', 5),
  coldSpawns: envInt('BENCH_RUNTIMES_COLD_SPAWNS', 10),
};
const ticksPerSecond = clockTicksPerSecond();
const MINUTES = 60_000;
const step = (what: string) => process.stderr.write(`  ${what}\n`);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVER = here('./runtime-http-server.js');
const BARE = here('./http-bare-server.js');
const WORKER_ENTRY = here('./worker-subject.js');
const OUT = here('./bundled-runtimes/');
const WORKER_DIR = `${OUT}workerd/`;
const BARE_WORKER = here('./worker-bare.js');
const BARE_WORKER_DIR = `${OUT}workerd-bare/`;
const SERVERLESS = here('./serverless-subject.js');
const SERVERLESS_BUNDLE = `${OUT}serverless/function.mjs`;

type Era = 'legacy' | '2026-07-28';
const ERAS: Era[] = ['legacy', '2026-07-28'];
/** How many calls a window of `subject` takes (see `config.calls`). */
const callsOf = (subject: Subject, calls: number) =>
  subject.startsWith('workerd') ? Math.ceil(calls / 4) : calls;
/** The subjects of the call rounds: the floor first, then mcp-fw on each runtime. */
type Subject = 'floor (node:http)' | 'node' | 'bun' | 'deno' | 'workerd floor' | 'workerd';
const SUBJECTS: Subject[] = [
  'floor (node:http)',
  'node',
  'bun',
  'deno',
  'workerd floor',
  'workerd',
];
/**
 * `BENCH_RUNTIMES_SUBJECTS=node,workerd` measures a subset (the node:http floor always runs);
 * `BENCH_RUNTIMES_PARTS=calls` (or `cold`) one part of the run.
 */
const selected = (process.env.BENCH_RUNTIMES_SUBJECTS?.split(',').filter(Boolean) ??
  SUBJECTS) as Subject[];
const parts = process.env.BENCH_RUNTIMES_PARTS?.split(',') ?? ['cold', 'calls'];

/** What one subject's server measured, per era, round by round. */
interface Measured {
  readonly server: HttpServerProcess;
  readonly connections: () => Connection[];
  readonly workers: Record<Era, (() => Promise<void>)[]>;
  readonly rounds: Record<Era, Load[]>;
  /** Opens new connections (and legacy sessions) before a window. */
  readonly reconnect: () => Promise<void>;
}

async function startSubject(subject: Subject): Promise<Measured> {
  const server: HttpServerProcess =
    subject === 'workerd'
      ? await startWorkerd(WORKER_DIR)
      : subject === 'workerd floor'
        ? await startWorkerd(BARE_WORKER_DIR)
        : subject === 'floor (node:http)'
          ? await startHttpServer(BARE)
          : await startHttpServer(SERVER, [], RUNTIMES[subject].args, RUNTIMES[subject].command);
  const connections = {} as Record<Era, Connection[]>;
  const sessions: LegacySession[] = [];
  const open = async (era: Era) => {
    for (const c of connections[era] ?? []) c.close();
    connections[era] = Array.from({ length: config.connections }, () => openConnection(server.url));
    if (era === 'legacy')
      for (const [i, c] of connections[era].entries())
        sessions[i] = (await LegacySession.open(c)).session;
  };
  // The workers read the current connections and sessions, which `reconnect` replaces.
  const slots = Array.from({ length: config.connections * config.depth }, (_, k) =>
    Math.floor(k / config.depth),
  );
  const workers = {
    legacy: slots.map((i) => () => sessions[i].add()),
    '2026-07-28': slots.map((i) => () => modernAdd(connections['2026-07-28'][i])),
  };
  // Each era's connections are opened just before their warm-up: Node answers a connection that
  // sent nothing for a minute (headersTimeout) with a 408, as it may while the others warm up.
  for (const era of ERAS) {
    await open(era);
    const calls = callsOf(subject, config.warmupCalls);
    step(`${subject}: warm-up, ${era} (${calls} calls)`);
    await withTimeout(
      load(server.pid, workers[era], calls, ticksPerSecond),
      5 * MINUTES,
      `${subject} ${era} warm-up`,
    );
  }
  return {
    server,
    connections: () => [...connections.legacy, ...connections['2026-07-28']],
    workers,
    // Idle while the others are measured, a subject's connections and sessions may be gone:
    // servers close idle connections (a write can then race the close, EPIPE) and workerd
    // evicts an idle Durable Object with its sessions, as Cloudflare does. So each window
    // starts on new ones.
    reconnect: async () => {
      for (const era of ERAS) await open(era);
    },
    rounds: { legacy: [], '2026-07-28': [] },
  };
}

/**
 * Every subject runs at once (idle while the others are measured) and takes its windows in
 * turn, forward then backward round by round (and the eras likewise), so the drift of a shared
 * machine hits every subject alike.
 */
async function callRounds(subjects: Subject[]): Promise<Record<Subject, Measured>> {
  const measured = {} as Record<Subject, Measured>;
  for (const subject of subjects) measured[subject] = await startSubject(subject);
  for (let round = 0; round < config.rounds; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    const eras = round % 2 === 0 ? ERAS : [...ERAS].reverse();
    step(
      `round ${round + 1} of ${config.rounds}: ${order.join(', ')} (${config.calls} calls per era)`,
    );
    for (const subject of order) {
      const m = measured[subject];
      await m.reconnect();
      // A few unmeasured calls first: a server idle while the others ran has shrunk its heap.
      await load(m.server.pid, m.workers[eras[0]], callsOf(subject, 2_000), ticksPerSecond);
      for (const era of eras) {
        m.rounds[era].push(
          await withTimeout(
            load(m.server.pid, m.workers[era], callsOf(subject, config.calls), ticksPerSecond),
            5 * MINUTES,
            `${subject} ${era}`,
          ),
        );
      }
    }
  }
  for (const m of Object.values(measured)) {
    for (const c of m.connections()) c.close();
    await m.server.close();
  }
  return measured;
}

/** A median and the spread (min–max) over the rounds. */
interface Spread {
  median: number;
  min: number;
  max: number;
}
const spread = (values: number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

interface CallResult {
  cpuUsPerCall: Spread;
  cpuUsPerCallSchedstat: Spread;
  callsPerSecond: Spread;
  /** Server CPU per call over the floor's in the same round. */
  cpuRatio: Spread;
  /** Calls per second over the floor's in the same round. */
  rateRatio: Spread;
  /** workerd: server CPU per call over the workerd floor's in the same round, when it ran. */
  cpuRatioToWorkerdFloor?: Spread;
}

function summarise(measured: Record<Subject, Measured>): Record<string, CallResult> {
  const floor = measured['floor (node:http)'];
  const results: Record<string, CallResult> = {};
  for (const [subject, m] of Object.entries(measured)) {
    for (const era of ERAS) {
      const rounds = m.rounds[era];
      const floorRounds = floor.rounds[era];
      results[`${subject}, ${era}`] = {
        cpuUsPerCall: spread(rounds.map((l) => l.cpuUsPerCall)),
        cpuUsPerCallSchedstat: spread(rounds.map((l) => l.cpuUsPerCallSchedstat)),
        callsPerSecond: spread(rounds.map((l) => l.callsPerSecond)),
        cpuRatio: spread(rounds.map((l, i) => l.cpuUsPerCall / floorRounds[i].cpuUsPerCall)),
        rateRatio: spread(rounds.map((l, i) => l.callsPerSecond / floorRounds[i].callsPerSecond)),
      };
      const workerdFloor = measured['workerd floor']?.rounds[era];
      if (subject === 'workerd' && workerdFloor)
        results[`${subject}, ${era}`].cpuRatioToWorkerdFloor = spread(
          rounds.map((l, i) => l.cpuUsPerCall / workerdFloor[i].cpuUsPerCall),
        );
    }
  }
  return results;
}

interface ColdResult {
  wallMs: Spread;
  /** The server's CPU (every thread) by its first answer. */
  cpuMs: Spread;
}

/**
 * Spawn to the first `initialize` answer, the subjects taking turns after one discarded round
 * (which also writes the Node launcher's code cache, as the first start after a deploy does).
 */
async function coldStarts(
  subjects: Record<string, () => Promise<StartedServer>>,
): Promise<Record<string, ColdResult>> {
  const wall: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let round = -1; round < config.coldSpawns; round++) {
    step(`cold start, round ${round + 2} of ${config.coldSpawns + 1}`);
    for (const [name, start] of Object.entries(subjects)) {
      const server = await start();
      try {
        const answered = await withTimeout(
          firstInitialize(server, ticksPerSecond),
          60_000,
          `${name} initialize`,
        );
        if (round < 0) continue;
        (wall[name] ??= []).push(answered.at - server.spawnedAt);
        (cpu[name] ??= []).push(answered.cpuMs);
      } finally {
        await server.close();
      }
    }
  }
  const result: Record<string, ColdResult> = {};
  for (const name of Object.keys(subjects))
    result[name] = { wallMs: spread(wall[name]), cpuMs: spread(cpu[name]) };
  return result;
}

interface BundleSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** A bundle's size, and gzipped at zlib's default level (as `wrangler deploy` reports it). */
function sizeOf(file: string): BundleSize {
  const content = readFileSync(file);
  return { file, bytes: content.length, gzipBytes: gzipSync(content).length };
}

/**
 * The serverless function bundled as Netlify's esbuild bundler does a function (one ES module for
 * Node, the `node` conditions, not minified), with a `require` for its CommonJS dependencies.
 */
async function bundleServerless(): Promise<void> {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [SERVERLESS],
    outfile: SERVERLESS_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
}

/** The Worker bundle as `wrangler deploy --minify` would upload it. */
async function minified(file: string): Promise<BundleSize> {
  const esbuild = await import('esbuild');
  const { code } = await esbuild.transform(readFileSync(file, 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'es2022',
  });
  const out = file.replace(/(\.m?js)$/, '.min$1');
  writeFileSync(out, code);
  return sizeOf(out);
}

const f = (v: number, d = 1) =>
  v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const range = (s: Spread, d = 1, unit = '') =>
  `${f(s.median, d)}${unit} (${f(s.min, d)}–${f(s.max, d)})`;

function callsTable(results: Record<string, CallResult>): string {
  const lines = [
    '| subject, era | server µs/call (min–max) | × floor | (schedstat µs) | calls/s (min–max) | × floor calls/s |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [name, r] of Object.entries(results))
    lines.push(
      `| ${name} | ${range(r.cpuUsPerCall)} | ${range(r.cpuRatio, 2, '×')}${r.cpuRatioToWorkerdFloor ? `; × workerd floor ${range(r.cpuRatioToWorkerdFloor, 2, '×')}` : ''} | ${f(r.cpuUsPerCallSchedstat.median)} | ${range(r.callsPerSecond, 0)} | ${range(r.rateRatio, 2, '×')} |`,
    );
  return lines.join('\n');
}

function coldTable(results: Record<string, ColdResult>, reference: string): string {
  const lines = [
    `| cold start, spawn to first initialize answer | wall ms (min–max) | × ${reference} | server CPU ms (min–max) |`,
    '|---|---:|---:|---:|',
  ];
  const base = results[reference].wallMs.median;
  for (const [name, r] of Object.entries(results))
    lines.push(
      `| ${name} | ${range(r.wallMs)} | ${f(r.wallMs.median / base, 2)}× | ${range(r.cpuMs)} |`,
    );
  return lines.join('\n');
}

function sizeTable(sizes: Record<string, BundleSize>): string {
  const kib = (b: number) => f(b / 1024, 1);
  const lines = ['| target | bundle | KiB | gzip KiB |', '|---|---|---:|---:|'];
  for (const [name, s] of Object.entries(sizes))
    lines.push(`| ${name} | ${s.file} | ${kib(s.bytes)} | ${kib(s.gzipBytes)} |`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const machine = { ...machineFacts(ticksPerSecond), idleShareAtStart: await idleShare(1000) };
  process.stderr.write(
    `mcp-fw runtimes benchmark, node ${machine.node}, ${machine.nproc} CPUs (${machine.cpu})\n`,
  );
  const versions = await runtimeVersions();
  process.stderr.write(
    `  ${Object.entries(versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}\n`,
  );

  step('bundling: the Node bundle (mcp-fw build --bundle) and the Worker (a Workers build)');
  rmSync(OUT, { recursive: true, force: true });
  const nodeBundle = await bundleServer({ entry: SERVER, outDir: OUT, name: 'mcp-fw-http' });
  await prepareWorker(WORKER_ENTRY, WORKER_DIR);
  await prepareWorker(BARE_WORKER, BARE_WORKER_DIR, false);
  await bundleServerless();
  const sizes = {
    'Node (mcp-fw build --bundle: whitespace and syntax minified)': sizeOf(nodeBundle.bundleFile),
    'Workers (esbuild as wrangler deploy: not minified)': sizeOf(`${WORKER_DIR}worker.js`),
    'Workers, minified (wrangler deploy --minify)': await minified(`${WORKER_DIR}worker.js`),
    'serverless function (esbuild as Netlify bundles a function: not minified)':
      sizeOf(SERVERLESS_BUNDLE),
    'serverless function, minified': await minified(SERVERLESS_BUNDLE),
  };
  for (const s of Object.values(sizes)) s.file = s.file.slice(s.file.indexOf('bench/'));

  const interference = new Interference();
  const node = RUNTIMES.node;
  const script =
    (runtime: RuntimeCommand, file = SERVER) =>
    () =>
      startScript(runtime, file);
  // The serverless function's legacy sessions live in Redis, up before its instances start, as a
  // platform's Redis is.
  const redis = parts.includes('cold') ? await startRedisServer() : undefined;
  const serverless = (module: string) => () =>
    startServerlessInstance(module, { REDIS_URL: redis!.url });
  const cold = !parts.includes('cold')
    ? {}
    : await coldStarts({
        'node, bundle (launcher)': script(node, nodeBundle.launcherFile),
        'node, dist (unbundled)': script(node),
        'bun, dist': script(RUNTIMES.bun),
        'deno, dist': script(RUNTIMES.deno),
        'workerd, Worker bundle': () => startWorkerd(WORKER_DIR),
        'serverless function (Node), dist (unbundled)': serverless(SERVERLESS),
        'serverless function (Node), esbuild bundle': serverless(SERVERLESS_BUNDLE),
        'floor: node, bare node:http server': script(node, BARE),
      });
  await redis?.close();
  // Printed at once: the call rounds take many minutes on a busy machine.
  if (parts.includes('cold')) console.log(`\n${coldTable(cold, 'node, bundle (launcher)')}`);
  console.log(`\n${sizeTable(sizes)}\n`);
  const subjects = SUBJECTS.filter((s) => s === 'floor (node:http)' || selected.includes(s));
  const calls = parts.includes('calls') ? summarise(await callRounds(subjects)) : {};
  const otherCpuShare = interference.share();

  if (parts.includes('calls')) console.log(`\n${callsTable(calls)}\n`);
  console.log(
    `other processes used ${(100 * otherCpuShare).toFixed(1)}% of the machine's CPU during the run`,
  );
  writeReport('runtimes.json', {
    ...reportHeader(machine, otherCpuShare),
    config,
    versions,
    calls,
    cold,
    sizes,
  });
}

/** The version of each runtime measured, as it reports it. */
async function runtimeVersions(): Promise<Record<string, string>> {
  const { execFileSync } = await import('node:child_process');
  const { WORKERD } = await (await import('./runtime-procs.js')).workerdTools();
  const version = (command: string) =>
    execFileSync(command, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
  return {
    node: process.version,
    bun: version(RUNTIMES.bun.command),
    deno: version(RUNTIMES.deno.command),
    workerd: version(WORKERD),
  };
}

runScript(main, () => {
  killHttpServers();
  killRuntimeProcesses();
});
