import { performance } from 'node:perf_hooks';
import { StdioClient, type Reply, type SpawnOptions } from './client.js';
import { envelope } from './http-client.js';
import { cpuNanos, cpuTicks, cpusAllowed, pin, rssKb } from './proc.js';
import { quantile, withTimeout } from './stats.js';

export const PROTOCOL_VERSION = '2025-11-25';

export interface Connected {
  client: StdioClient;
  /** Spawn to the initialize response. */
  startMs: number;
  /** VmRSS right after the initialize response. */
  startRssMb: number;
  /**
   * CPU the server's threads had used when its initialize answer arrived, in ms (schedstat):
   * unlike the wall time, it does not grow when other processes hold the CPUs.
   */
  startCpuMs: number;
}

/** Spawns a server and completes the handshake. */
export async function connect(script: string, options: SpawnOptions = {}): Promise<Connected> {
  const client = new StdioClient(script, options);
  const reply = await withTimeout(
    client.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcp-fw-bench', version: '1.0.0' },
    }),
    30_000,
    `${script}: initialize`,
  );
  if (reply.result.protocolVersion !== PROTOCOL_VERSION) {
    const got = String(reply.result.protocolVersion);
    throw new Error(`${script}: negotiated ${got}, expected ${PROTOCOL_VERSION}`);
  }
  const startCpuMs = cpuNanos(client.pid) / 1e6;
  const startRssMb = rssKb(client.pid) / 1024;
  client.notify('notifications/initialized');
  return { client, startMs: reply.receivedAt - client.spawnedAt, startRssMb, startCpuMs };
}

let operand = 0;

/**
 * One `add` call whose answer is checked, so a fast wrong server cannot win. `extra(a)` adds
 * params beside the arguments (the eras benchmark's legacy `_meta`).
 */
export async function callAdd(client: StdioClient, extra?: (a: number) => object): Promise<Reply> {
  const a = operand++;
  const reply = await client.request('tools/call', {
    name: 'add',
    arguments: { a, b: 2 },
    ...extra?.(a),
  });
  const content = reply.result.content as { type: string; text: string }[] | undefined;
  if (content?.[0]?.type !== 'text' || content[0].text !== String(a + 2)) {
    throw new Error(`add(${a}, 2) answered ${JSON.stringify(reply.result)}`);
  }
  return reply;
}

/** A checked 2026-07-28 `add`: the envelope rides in `_meta`, no initialize before. */
export async function callModernAdd(client: StdioClient): Promise<void> {
  const a = operand++;
  const { result } = await client.request('tools/call', {
    name: 'add',
    arguments: { a, b: 2 },
    _meta: envelope(a),
  });
  const content = result.content as { text?: string }[] | undefined;
  if (result.resultType !== 'complete' || content?.[0]?.text !== String(a + 2)) {
    throw new Error(`modern add(${a}, 2) answered ${JSON.stringify(result)}`);
  }
}

export async function checkEcho(client: StdioClient): Promise<void> {
  const text = 'hello, bench';
  const reply = await client.request('tools/call', { name: 'echo', arguments: { text } });
  const content = reply.result.content as { text?: string }[] | undefined;
  if (content?.[0]?.text !== text) throw new Error(`echo answered ${JSON.stringify(reply.result)}`);
}

export interface Sequential {
  calls: number;
  callsPerSecond: number;
  p50Us: number;
  p99Us: number;
}

export interface SequentialRuns extends Sequential {
  /** p50 of every run, in order; the figures above are those of the run with the lowest p50. */
  runP50Us: number[];
  /** Whether harness and server shared one CPU during the runs. */
  pinned: boolean;
}

/**
 * `runs` sequential runs, keeping the best. A round trip is mostly two process wake-ups, and
 * unpinned on a small VM their cost depends on which CPU the kernel wakes the server on: whole
 * runs land in a fast or a slow mode for every server alike, sticking to one mode for seconds.
 * So harness and server share one CPU here (unless `pinned` is false), which leaves the
 * software and two context switches; the pipelined phase runs unpinned.
 */
export async function sequentialRuns(
  client: StdioClient,
  calls: number,
  runs: number,
  pinned: boolean,
): Promise<SequentialRuns> {
  const own = cpusAllowed(process.pid);
  const server = cpusAllowed(client.pid);
  const cpu = own.split(/[-,]/)[0];
  const shared = pinned && pin(process.pid, cpu) && pin(client.pid, cpu);
  try {
    const results: Sequential[] = [];
    for (let i = 0; i < runs; i++) results.push(await sequential(client, calls));
    const best = results.reduce((a, b) => (b.p50Us < a.p50Us ? b : a));
    return { ...best, runP50Us: results.map((r) => r.p50Us), pinned: shared };
  } finally {
    if (pinned) {
      pin(process.pid, own);
      pin(client.pid, server);
    }
  }
}

/** `calls` add calls, each sent after the previous answer arrived. */
export async function sequential(client: StdioClient, calls: number): Promise<Sequential> {
  const latencies = new Array<number>(calls);
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const sent = performance.now();
    const reply = await callAdd(client);
    latencies[i] = (reply.receivedAt - sent) * 1000;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    calls,
    callsPerSecond: calls / seconds,
    p50Us: quantile(latencies, 0.5),
    p99Us: quantile(latencies, 0.99),
  };
}

export interface Pipelined {
  calls: number;
  inFlight: number;
  callsPerSecond: number;
  /** Server utime+stime (from /proc/<pid>/stat) per call. */
  cpuUsPerCall: number;
  /** The same from per-thread schedstat, nanosecond resolution: a cross-check. */
  cpuUsPerCallSchedstat: number;
}

/** `calls` add calls with `inFlight` outstanding at all times, and the server's CPU meanwhile. */
export async function pipelined(
  client: StdioClient,
  calls: number,
  inFlight: number,
  ticksPerSecond: number,
): Promise<Pipelined> {
  let issued = 0;
  const worker = async () => {
    while (issued < calls) {
      issued++;
      await callAdd(client);
    }
  };
  const ticksBefore = cpuTicks(client.pid);
  const nanosBefore = cpuNanos(client.pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - started) / 1000;
  const ticks = cpuTicks(client.pid) - ticksBefore;
  const nanos = cpuNanos(client.pid) - nanosBefore;
  return {
    calls,
    inFlight,
    callsPerSecond: calls / seconds,
    cpuUsPerCall: (ticks * 1e6) / ticksPerSecond / calls,
    cpuUsPerCallSchedstat: nanos / 1000 / calls,
  };
}
