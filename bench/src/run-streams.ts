// Ten thousand held streams on one process (issue 40, target 4): `npm run bench:streams`.
// For each kind of stream (legacy sessions each holding a GET stream; 2026-07-28
// `subscriptions/listen` streams), mcp-fw beside the floor (node:http holding as many SSE
// responses, src/streams-bare-server.ts), each a fresh process:
//   1. a call's latency on its own connection, no streams held (p50, p99 of sequential calls);
//   2. memory after GC, then BENCH_STREAMS streams opened, then memory after GC again: the
//      difference per stream (RSS and JS heap), and the server CPU opening them took;
//   3. the call's latency again while they are held;
//   4. fan-out: a call announces a change of the tool list; the time until every stream has
//      the notification (and until the first has), several times.
import { performance } from 'node:perf_hooks';
import { envInt, nodeArgs } from './config.js';
import { arrivals, type HeldStream, openStreams, type StreamKind } from './held-streams.js';
import { LegacySession, MODERN, modernAdd } from './http-client.js';
import { killHttpServers, startHttpServer } from './http-proc.js';
import { WireConnection } from './http-wire.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, cpuTicks, idleShare, Interference, rssKb } from './proc.js';
import { printVerdicts, reportHeader, runScript, writeReport, type Verdict } from './script.js';
import { quantile } from './stats.js';
import { STREAMS } from './streams-limits.js';

const SUBJECTS = {
  bare: new URL('./streams-bare-server.js', import.meta.url),
  'mcp-fw': new URL('./streams-mcp-fw-server.js', import.meta.url),
} as const;
type Subject = keyof typeof SUBJECTS;
const KINDS: readonly StreamKind[] = (process.env.BENCH_STREAM_KINDS?.split(
  ',',
) as StreamKind[]) ?? ['legacy-get', 'listen'];
const CALLS = envInt('BENCH_STREAM_CALLS', 2_000);
const FANOUTS = envInt('BENCH_STREAM_FANOUTS', 5);
const TICK_MS = 1000 / clockTicksPerSecond();

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Latency {
  p50Us: number;
  p99Us: number;
}

interface Measured {
  /** Before the streams opened, then with them held: one after the other. */
  idle: Latency;
  loaded: Latency;
  /** With the streams held, and on a twin process holding none, in alternating blocks. */
  interleaved: { held: Latency; twin: Latency };
  before: Memory;
  after: Memory;
  /** VmRSS from /proc right after the second GC, as a cross-check of process.memoryUsage(). */
  procRssKb: number;
  openMs: number;
  openCpuMs: number;
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
  return { p50Us: quantile(times, 0.5), p99Us: quantile(times, 0.99) };
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
  for (let i = 0; i < CALLS; i++) await call();
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

/**
 * The same calls on `held` (streams open) and on `twin` (a second process of the same server,
 * none open), in alternating blocks: on a shared machine a burst of other work then hits both
 * alike, which one measurement after the other cannot promise.
 */
async function sideBySide(
  held: () => Promise<void>,
  twin: () => Promise<void>,
): Promise<{ held: Latency; twin: Latency }> {
  const times = { held: [] as number[], twin: [] as number[] };
  const blocks = 10;
  for (let block = 0; block < blocks; block++) {
    const order = block % 2 === 0 ? (['held', 'twin'] as const) : (['twin', 'held'] as const);
    for (const which of order) {
      const call = which === 'held' ? held : twin;
      for (let i = 0; i < CALLS / blocks; i++) {
        const start = performance.now();
        await call();
        times[which].push((performance.now() - start) * 1000);
      }
    }
  }
  const summary = (t: number[]) => ({ p50Us: quantile(t, 0.5), p99Us: quantile(t, 0.99) });
  return { held: summary(times.held), twin: summary(times.twin) };
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
      const loaded = await latency(call, CALLS);
      const twin = await subjectServer(subject, kind);
      let interleaved: Measured['interleaved'];
      try {
        interleaved = await sideBySide(call, twin.call);
      } finally {
        await twin.close();
      }
      const fanout = [];
      for (let i = 0; i < FANOUTS; i++) fanout.push(await fanOut(connection, STREAMS));
      return { idle, loaded, interleaved, before, after, procRssKb, openMs, openCpuMs, fanout };
    } finally {
      for (const stream of streams) stream.close();
    }
  } finally {
    await main.close();
  }
}

const perStreamKb = (m: Measured, key: keyof Memory) =>
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
    ['call p50, no streams, µs', b.idle.p50Us, m.idle.p50Us, true],
    ['call p99, no streams, µs', b.idle.p99Us, m.idle.p99Us, true],
    ['call p50, streams held, µs', b.loaded.p50Us, m.loaded.p50Us, true],
    ['call p99, streams held, µs', b.loaded.p99Us, m.loaded.p99Us, true],
    [
      'call p99, twin with no streams, alternating, µs',
      b.interleaved.twin.p99Us,
      m.interleaved.twin.p99Us,
      true,
    ],
    [
      'call p99, streams held, alternating, µs',
      b.interleaved.held.p99Us,
      m.interleaved.held.p99Us,
      true,
    ],
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
    const m = bySubject['mcp-fw'];
    const rssRatio = perStreamKb(m, 'rss') / perStreamKb(bySubject.bare, 'rss');
    const p99Ratio = m.interleaved.held.p99Us / m.interleaved.twin.p99Us;
    const serialRatio = m.loaded.p99Us / m.idle.p99Us;
    verdicts.push(
      {
        name: `${kind}: RSS per held stream ≤ 2× the floor's`,
        measured: `${f1(perStreamKb(m, 'rss'))} KB against ${f1(perStreamKb(bySubject.bare, 'rss'))} KB (${rssRatio.toFixed(2)}×)`,
        pass: rssRatio <= 2,
      },
      {
        name: `${kind}: a call's p99 with the streams held ≤ 1.5× without (alternating with a twin server)`,
        measured: `${f1(m.interleaved.held.p99Us)} µs against ${f1(m.interleaved.twin.p99Us)} µs (${p99Ratio.toFixed(2)}×); one after the other ${serialRatio.toFixed(2)}× (${f1(m.loaded.p99Us)} / ${f1(m.idle.p99Us)} µs)`,
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
    results,
    targets: verdicts,
  });
}

runScript(main, killHttpServers);
