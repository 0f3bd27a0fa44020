// Ten thousand held streams on one process (issue 40, target 4): `npm run bench:streams`.
// For each kind of stream (legacy sessions each holding a GET stream; 2026-07-28
// `subscriptions/listen` streams), mcp-fw beside the floor (node:http holding as many SSE
// responses, src/streams-bare-server.ts), each a fresh process:
//   1. a call's latency on its own connection, no streams held (p50, p99 of sequential calls);
//   2. memory after GC, then BENCH_STREAMS streams opened, then memory after GC again: the
//      difference per stream (RSS and JS heap), and the server CPU opening them took; then the
//      server's CPU while it holds them and nothing is asked of it (a timer or periodic walk
//      per stream would show there);
//   3. the call's latency again while they are held; then the figure that judges the target:
//      BENCH_STREAM_ROUNDS rounds of BENCH_STREAM_CALLS calls on this server and on a twin
//      process of it holding no streams, the order swapped each round; every round's p99s and
//      the median of their ratios, pooled p50/p99/p99.9/max, and what the calls above the p99
//      coincided with (a GC pause of the server called, of the harness, or neither);
//   4. fan-out: a call announces a change of the tool list; the time until every stream has
//      the notification (and until the first has), several times.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { envInt, nodeArgs } from './config.js';
import { arrivals, type HeldStream, openStreams, type StreamKind } from './held-streams.js';
import { LegacySession, MODERN, modernAdd } from './http-client.js';
import { killHttpServers, startHttpServer } from './http-proc.js';
import { WireConnection } from './http-wire.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, cpuNanos, cpuTicks, idleShare, Interference, rssKb } from './proc.js';
import { printVerdicts, reportHeader, runScript, writeReport, type Verdict } from './script.js';
import { quantile } from './stats.js';
import { STREAMS } from './streams-limits.js';
import { recordPauses } from './streams-memory.js';

const SUBJECTS = {
  bare: new URL('./streams-bare-server.js', import.meta.url),
  'mcp-fw': new URL('./streams-mcp-fw-server.js', import.meta.url),
} as const;
type Subject = keyof typeof SUBJECTS;
const KINDS: readonly StreamKind[] = (process.env.BENCH_STREAM_KINDS?.split(
  ',',
) as StreamKind[]) ?? ['legacy-get', 'listen'];
const CALLS = envInt('BENCH_STREAM_CALLS', 10_000);
const WARMUP = envInt('BENCH_STREAM_WARMUP', 2_000);
const IDLE_MS = envInt('BENCH_STREAM_IDLE_MS', 10_000);
const FANOUTS = envInt('BENCH_STREAM_FANOUTS', 5);
const TICK_MS = 1000 / clockTicksPerSecond();

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Active handles and requests by kind (`Timeout`: armed timers). */
  resources: Record<string, number>;
}

interface Latency {
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
}

interface Measured {
  /** Before the streams opened, then with them held: one after the other. */
  idle: Latency;
  loaded: Latency;
  /** With the streams held, and on a twin process holding none, in alternating rounds. */
  interleaved: { held: Side; twin: Side };
  before: Memory;
  after: Memory;
  /** VmRSS from /proc right after the second GC, as a cross-check of process.memoryUsage(). */
  procRssKb: number;
  openMs: number;
  openCpuMs: number;
  /** Server CPU over IDLE_MS with the streams held and nothing asked of it, ms. */
  idleCpuMs: number;
  /** Per fan-out: ms until the first and until the last stream had the notification. */
  fanout: { firstMs: number; lastMs: number }[];
}

const headers = (name: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

let nextId = 1_000_000;

/** A stateless 2026-07-28 tools/call: the text of its first content block. */
async function callTool(connection: WireConnection, name: string): Promise<string> {
  const id = nextId++;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: {}, _meta },
  });
  const reply = await connection.send('POST', headers(name), body);
  if (reply.status !== 200) throw new Error(`${name}: HTTP ${reply.status} ${reply.body}`);
  const message = JSON.parse(reply.body) as { result?: { content?: { text?: string }[] } };
  const text = message.result?.content?.[0]?.text;
  if (typeof text !== 'string') throw new Error(`${name} answered ${reply.body}`);
  return text;
}

async function latency(call: () => Promise<void>, n: number): Promise<Latency> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await call();
    times.push((performance.now() - start) * 1000);
  }
  return summary(times);
}

async function fanOut(connection: WireConnection, streams: number): Promise<Measured['fanout'][0]> {
  arrivals.count = 0;
  arrivals.firstAt = arrivals.lastAt = 0;
  const start = performance.now();
  const answer = await callTool(connection, 'touch');
  if (answer !== 'ok') throw new Error(`touch answered ${answer}`);
  const deadline = start + 120_000;
  while (arrivals.count < streams) {
    if (performance.now() > deadline)
      throw new Error(`fan-out: ${arrivals.count} of ${streams} streams heard the change in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // One notification per stream, no more: a duplicate would be a wrong answer.
  await new Promise((resolve) => setTimeout(resolve, 200));
  if (arrivals.count !== streams)
    throw new Error(`fan-out: ${arrivals.count} notifications for ${streams} streams`);
  return { firstMs: arrivals.firstAt - start, lastMs: arrivals.lastAt - start };
}

/** A server of `subject` and a checked `add` call on its own connection, in `kind`'s era. */
async function subjectServer(subject: Subject, kind: StreamKind) {
  const server = await startHttpServer(
    SUBJECTS[subject].pathname,
    [],
    ['--expose-gc', ...nodeArgs],
  );
  const connection = new WireConnection(server.url);
  const call =
    kind === 'legacy-get'
      ? await LegacySession.open(connection).then(
          ({ session }) =>
            () =>
              session.add(),
        )
      : () => modernAdd(connection);
  for (let i = 0; i < WARMUP; i++) await call();
  return {
    server,
    connection,
    call,
    async close() {
      connection.close();
      await server.close();
    },
  };
}

/** One GC pause as the servers report it: start (ms since the epoch), length (ms), kind. */
type Pause = [at: number, ms: number, kind: string];

/** Why the slowest calls (above the pooled p99) of one side were slow, and its GC in all. */
interface Tail {
  /** Calls above the pooled p99. */
  slow: number;
  /** Of those: overlapping a GC pause of the server called, of the harness, of neither. */
  serverGc: number;
  harnessGc: number;
  neither: number;
  /** The server's GC pauses while this side's blocks ran: count and ms, by kind. */
  serverPauses: Record<string, { count: number; ms: number }>;
  /** The harness's GC pauses while this side's blocks ran, ms. */
  harnessPauseMs: number;
  /** The server's CPU per call over its blocks, all threads (GC helpers included), µs. */
  cpuPerCallUs: number;
  /** Time its main thread was ready to run but waited for a CPU, per call, µs. */
  runQueuePerCallUs: number;
}

interface Side {
  rounds: Latency[];
  pooled: Latency;
  tail: Tail;
}

const ROUNDS = envInt('BENCH_STREAM_ROUNDS', 5);

const summary = (t: readonly number[]): Latency => ({
  p50Us: quantile(t, 0.5),
  p99Us: quantile(t, 0.99),
  p999Us: quantile(t, 0.999),
  maxUs: t.reduce((a, b) => Math.max(a, b), 0),
});

const overlaps = (pauses: readonly Pause[], start: number, end: number) =>
  pauses.some(([at, ms]) => at < end && at + ms > start);

// The main thread's wait for a CPU while runnable, ns (/proc/<pid>/schedstat's second field).
function runQueueNanos(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
}

function tailOf(
  calls: { start: number[]; us: number[] },
  blocks: [start: number, end: number][],
  server: readonly Pause[],
  harness: readonly Pause[],
): Omit<Tail, 'cpuPerCallUs' | 'runQueuePerCallUs'> {
  const p99 = quantile(calls.us, 0.99);
  const inBlocks = (at: number) => blocks.some(([start, end]) => at >= start && at < end);
  const tail: ReturnType<typeof tailOf> = {
    slow: 0,
    serverGc: 0,
    harnessGc: 0,
    neither: 0,
    serverPauses: {},
    harnessPauseMs: 0,
  };
  for (let i = 0; i < calls.us.length; i++) {
    if (calls.us[i] <= p99) continue;
    const start = calls.start[i];
    const end = start + calls.us[i] / 1000;
    tail.slow++;
    const byServer = overlaps(server, start, end);
    const byHarness = overlaps(harness, start, end);
    if (byServer) tail.serverGc++;
    if (byHarness) tail.harnessGc++;
    if (!byServer && !byHarness) tail.neither++;
  }
  for (const [at, ms, kind] of server) {
    if (!inBlocks(at)) continue;
    const entry = (tail.serverPauses[kind] ??= { count: 0, ms: 0 });
    entry.count++;
    entry.ms += ms;
  }
  for (const [at, ms] of harness) if (inBlocks(at)) tail.harnessPauseMs += ms;
  return tail;
}

/**
 * The same calls on `held` (streams open) and on `twin` (a second process of the same server,
 * none open), in ROUNDS rounds of CALLS calls each, the order swapped every round (held, twin,
 * twin, held, …): a drift of other load then falls on both, and the ratio of each round's p99s
 * is read beside the others instead of trusting one. Every call's start is kept, and both
 * servers' GC pauses and the harness's own, to say what the slowest calls coincided with.
 */
async function sideBySide(
  held: { call: () => Promise<void>; connection: WireConnection; server: { pid: number } },
  twin: { call: () => Promise<void>; connection: WireConnection; server: { pid: number } },
): Promise<Measured['interleaved']> {
  const sides = { held, twin };
  const calls = {
    held: { start: [] as number[], us: [] as number[] },
    twin: { start: [] as number[], us: [] as number[] },
  };
  const blocks = { held: [] as [number, number][], twin: [] as [number, number][] };
  const rounds = { held: [] as Latency[], twin: [] as Latency[] };
  const cpu = { held: { nanos: 0, waited: 0 }, twin: { nanos: 0, waited: 0 } };
  const harness = recordPauses();
  // Forget the pauses of warm-up and stream opening.
  for (const side of [held, twin]) await callTool(side.connection, 'pauses');
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['held', 'twin'] as const) : (['twin', 'held'] as const);
    for (const which of order) {
      const { call } = sides[which];
      const us: number[] = [];
      const { pid } = sides[which].server;
      const cpuFrom = cpuNanos(pid);
      const waitFrom = runQueueNanos(pid);
      const blockStart = performance.timeOrigin + performance.now();
      for (let i = 0; i < CALLS; i++) {
        const start = performance.now();
        await call();
        const end = performance.now();
        us.push((end - start) * 1000);
        calls[which].start.push(performance.timeOrigin + start);
      }
      blocks[which].push([blockStart, performance.timeOrigin + performance.now()]);
      cpu[which].nanos += cpuNanos(pid) - cpuFrom;
      cpu[which].waited += runQueueNanos(pid) - waitFrom;
      calls[which].us.push(...us);
      rounds[which].push(summary(us));
    }
  }
  const harnessPauses = harness.take();
  const side = async (which: 'held' | 'twin'): Promise<Side> => {
    const pauses = JSON.parse(await callTool(sides[which].connection, 'pauses')) as Pause[];
    return {
      rounds: rounds[which],
      pooled: summary(calls[which].us),
      tail: {
        ...tailOf(calls[which], blocks[which], pauses, harnessPauses),
        cpuPerCallUs: cpu[which].nanos / 1000 / calls[which].us.length,
        runQueuePerCallUs: cpu[which].waited / 1000 / calls[which].us.length,
      },
    };
  };
  return { held: await side('held'), twin: await side('twin') };
}

async function measure(subject: Subject, kind: StreamKind): Promise<Measured> {
  const main = await subjectServer(subject, kind);
  const { server, connection, call } = main;
  try {
    const idle = await latency(call, CALLS);
    const before = JSON.parse(await callTool(connection, 'memory')) as Memory;
    const cpu = cpuTicks(server.pid);
    const opening = performance.now();
    let streams: HeldStream[] = [];
    try {
      streams = await openStreams(server.url, kind, STREAMS);
      const openMs = performance.now() - opening;
      const openCpuMs = (cpuTicks(server.pid) - cpu) * TICK_MS;
      const after = JSON.parse(await callTool(connection, 'memory')) as Memory;
      const procRssKb = rssKb(server.pid);
      // Held streams should cost nothing while nothing happens: a timer or a periodic walk per
      // stream (keep-alive, heartbeats, node:http's connection checks) would show here.
      const idleFrom = cpuNanos(server.pid);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const idleCpuMs = (cpuNanos(server.pid) - idleFrom) / 1e6;
      const loaded = await latency(call, CALLS);
      const twin = await subjectServer(subject, kind);
      let interleaved: Measured['interleaved'];
      try {
        interleaved = await sideBySide(main, twin);
      } finally {
        await twin.close();
      }
      const fanout = [];
      for (let i = 0; i < FANOUTS; i++) fanout.push(await fanOut(connection, STREAMS));
      return {
        idle,
        loaded,
        interleaved,
        before,
        after,
        procRssKb,
        openMs,
        openCpuMs,
        idleCpuMs,
        fanout,
      };
    } finally {
      for (const stream of streams) stream.close();
    }
  } finally {
    await main.close();
  }
}

const roundRatios = (m: Measured) =>
  m.interleaved.held.rounds.map((held, i) => held.p99Us / m.interleaved.twin.rounds[i].p99Us);
const roundRatio = (m: Measured) => quantile(roundRatios(m), 0.5);

/** Every round's p99s, and what the slowest calls coincided with. */
function roundsTable(subject: Subject, m: Measured): string {
  const { held, twin } = m.interleaved;
  const lines = held.rounds.map(
    (h, i) =>
      `    round ${i + 1}: held p99 ${f1(h.p99Us)} / twin ${f1(twin.rounds[i].p99Us)} µs = ${(h.p99Us / twin.rounds[i].p99Us).toFixed(2)}×  (p99.9 ${f1(h.p999Us)} / ${f1(twin.rounds[i].p999Us)}, max ${f1(h.maxUs)} / ${f1(twin.rounds[i].maxUs)})`,
  );
  const tail = (name: string, t: Tail) => {
    const pauses = Object.entries(t.serverPauses)
      .map(([kind, { count, ms }]) => `${kind} ${count} × = ${f1(ms)} ms`)
      .join(', ');
    return `    ${name}: ${t.slow} calls above p99: ${t.serverGc} during a server GC pause, ${t.harnessGc} during the harness's, ${t.neither} neither; server GC in its blocks: ${pauses || 'none'}; harness GC ${f1(t.harnessPauseMs)} ms; server CPU per call ${f1(t.cpuPerCallUs)} µs, its main thread waiting for a CPU ${f1(t.runQueuePerCallUs)} µs per call`;
  };
  return `  ${subject}, ${held.rounds.length} rounds of ${CALLS} calls each side:\n${lines.join('\n')}\n${tail('held', held.tail)}\n${tail('twin', twin.tail)}\n`;
}

const perStreamKb = (m: Measured, key: Exclude<keyof Memory, 'resources'>) =>
  (m.after[key] - m.before[key]) / 1024 / STREAMS;
const f1 = (n: number) => n.toFixed(1);
const median = (values: number[]) => quantile(values, 0.5);

function table(kind: StreamKind, results: Record<Subject, Measured>): string {
  const b = results.bare;
  const m = results['mcp-fw'];
  const rows: [string, number, number, boolean][] = [
    ['RSS per held stream, KB', perStreamKb(b, 'rss'), perStreamKb(m, 'rss'), true],
    ['JS heap per held stream, KB', perStreamKb(b, 'heapUsed'), perStreamKb(m, 'heapUsed'), true],
    [
      'RSS with the streams held, MB (after GC)',
      b.after.rss / 2 ** 20,
      m.after.rss / 2 ** 20,
      true,
    ],
    [`opening ${STREAMS} streams, s`, b.openMs / 1000, m.openMs / 1000, true],
    ['server CPU per stream opened, ms', b.openCpuMs / STREAMS, m.openCpuMs / STREAMS, true],
    [
      `server CPU idle ${IDLE_MS / 1000} s with the streams held, ms`,
      b.idleCpuMs,
      m.idleCpuMs,
      true,
    ],
    ['call p50, no streams, µs', b.idle.p50Us, m.idle.p50Us, true],
    ['call p99, no streams, µs', b.idle.p99Us, m.idle.p99Us, true],
    ['call p50, streams held, µs', b.loaded.p50Us, m.loaded.p50Us, true],
    ['call p99, streams held, µs', b.loaded.p99Us, m.loaded.p99Us, true],
    ...(['p50', 'p99', 'p999', 'max'] as const).flatMap(
      (q): [string, number, number, boolean][] => {
        const key = `${q}Us` as keyof Latency;
        const label = q === 'p999' ? 'p99.9' : q;
        return [
          [
            `call ${label}, twin holding none, µs`,
            b.interleaved.twin.pooled[key],
            m.interleaved.twin.pooled[key],
            true,
          ],
          [
            `call ${label}, streams held, µs`,
            b.interleaved.held.pooled[key],
            m.interleaved.held.pooled[key],
            true,
          ],
        ];
      },
    ),
    ['call p99 held / twin, median of rounds', roundRatio(b), roundRatio(m), true],
    [
      'fan-out to all, median ms',
      median(b.fanout.map((x) => x.lastMs)),
      median(m.fanout.map((x) => x.lastMs)),
      true,
    ],
    [
      'fan-out to all, max ms',
      Math.max(...b.fanout.map((x) => x.lastMs)),
      Math.max(...m.fanout.map((x) => x.lastMs)),
      true,
    ],
    [
      'fan-out, first stream, median ms',
      median(b.fanout.map((x) => x.firstMs)),
      median(m.fanout.map((x) => x.firstMs)),
      true,
    ],
  ];
  const lines = rows.map(
    ([name, bare, ours]) =>
      `  ${name.padEnd(44)} ${f1(bare).padStart(10)} ${f1(ours).padStart(10)} ${(ours / bare).toFixed(2).padStart(8)}×`,
  );
  return `${kind === 'legacy-get' ? 'legacy sessions, each holding a GET stream' : '2026-07-28 subscriptions/listen streams'} (${STREAMS}):\n  ${''.padEnd(44)} ${'bare'.padStart(10)} ${'mcp-fw'.padStart(10)} ${'ratio'.padStart(9)}\n${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const machine = {
    ...machineFacts(clockTicksPerSecond()),
    idleShareAtStart: await idleShare(1000),
  };
  process.stderr.write(
    `mcp-fw ten-thousand-streams benchmark, node ${machine.node}, ${STREAMS} streams per subject and kind\n`,
  );
  const interference = new Interference();
  const results: Partial<Record<StreamKind, Record<Subject, Measured>>> = {};
  const verdicts: Verdict[] = [];
  for (const kind of KINDS) {
    const bySubject = {} as Record<Subject, Measured>;
    for (const subject of Object.keys(SUBJECTS) as Subject[]) {
      process.stderr.write(`  ${kind}: ${subject}\n`);
      bySubject[subject] = await measure(subject, kind);
    }
    results[kind] = bySubject;
    console.log(table(kind, bySubject));
    for (const subject of Object.keys(SUBJECTS) as Subject[])
      console.log(roundsTable(subject, bySubject[subject]));
    const m = bySubject['mcp-fw'];
    const rssRatio = perStreamKb(m, 'rss') / perStreamKb(bySubject.bare, 'rss');
    const p99Ratio = roundRatio(m);
    const ratios = roundRatios(m)
      .map((r) => r.toFixed(2))
      .join(', ');
    const pooled = m.interleaved.held.pooled.p99Us / m.interleaved.twin.pooled.p99Us;
    const serialRatio = m.loaded.p99Us / m.idle.p99Us;
    verdicts.push(
      {
        name: `${kind}: RSS per held stream ≤ 2× the floor's`,
        measured: `${f1(perStreamKb(m, 'rss'))} KB against ${f1(perStreamKb(bySubject.bare, 'rss'))} KB (${rssRatio.toFixed(2)}×)`,
        pass: rssRatio <= 2,
      },
      {
        name: `${kind}: a call's p99 with the streams held ≤ 1.5× without (median of rounds alternating with a twin server)`,
        measured: `${p99Ratio.toFixed(2)}× (rounds ${ratios}); pooled ${f1(m.interleaved.held.pooled.p99Us)} / ${f1(m.interleaved.twin.pooled.p99Us)} µs (${pooled.toFixed(2)}×); one after the other ${serialRatio.toFixed(2)}× (${f1(m.loaded.p99Us)} / ${f1(m.idle.p99Us)} µs)`,
        pass: p99Ratio <= 1.5,
      },
    );
  }
  const otherCpuShare = interference.share();
  printVerdicts(verdicts, otherCpuShare);
  writeReport('streams.json', {
    ...reportHeader(machine, otherCpuShare),
    streams: STREAMS,
    calls: CALLS,
    rounds: ROUNDS,
    results,
    targets: verdicts,
  });
}

runScript(main, killHttpServers);
