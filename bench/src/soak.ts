// The soak benchmark (issue 8): 200,000 mixed calls over stdio and HTTP (legacy sessions and
// stateless 2026-07-28 requests) against one server process with guardrails on, with random
// cancels, dropped HTTP requests, abandoned sessions and stdio clients that hang up mid-call.
// Reports the server's RSS before and after warm-up and at the end, and every unexpected
// answer. Usage: `npm run soak` (builds first); SOAK_CALLS, SOAK_WARMUP_CALLS, SOAK_SEED.
// Not a test: it exits non-zero on an unexpected answer or RSS growth over 10 %.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { peakRssKb, rssKb } from './proc.js';
import { LegacyHttpSession, modernCall } from './soak-http.js';
import { plan, random, type Planned } from './soak-mix.js';
import { SoakStdioClient, type Outcome } from './soak-stdio.js';

const envInt = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer`);
  return value;
};
const CALLS = envInt('SOAK_CALLS', 200_000);
const WARMUP = envInt('SOAK_WARMUP_CALLS', 20_000);
const rand = random(envInt('SOAK_SEED', 8));
const SERVER = fileURLToPath(new URL('./soak-server.js', import.meta.url));
const STDIO_IN_FLIGHT = 64;
const HTTP_WORKERS = 32;
const log = (line: string) => process.stderr.write(`  ${line}\n`);

interface Tally {
  calls: number;
  byKind: Record<string, number>;
  byTransport: Record<string, number>;
  cancelled: number;
  unexpected: number;
  samples: string[];
  sessions: { opened: number; deleted: number; abandoned: number };
  hangUps: { episodes: number; exitCodes: Record<string, number> };
}

const tally: Tally = {
  calls: 0,
  byKind: {},
  byTransport: {},
  cancelled: 0,
  unexpected: 0,
  samples: [],
  sessions: { opened: 0, deleted: 0, abandoned: 0 },
  hangUps: { episodes: 0, exitCodes: {} },
};

function unexpected(what: string): void {
  tally.unexpected++;
  if (tally.samples.length < 20) tally.samples.push(what);
}

function record(call: Planned, outcome: Outcome, transport: string): void {
  tally.calls++;
  tally.byKind[call.kind] = (tally.byKind[call.kind] ?? 0) + 1;
  tally.byTransport[transport] = (tally.byTransport[transport] ?? 0) + 1;
  if ('cancelled' in outcome) tally.cancelled++;
  const problem =
    'error' in outcome
      ? `${call.method} error ${JSON.stringify(outcome.error)}`
      : call.check(outcome);
  if (problem) unexpected(`${transport}: ${problem}`);
}

/** `count` calls on the long-lived stdio connection, `STDIO_IN_FLIGHT` at a time. */
async function stdioCalls(client: SoakStdioClient, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next++ < count) {
      const call = plan(rand);
      record(call, await client.request(call.method, call.params, call.cancelAfterMs), 'stdio');
    }
  };
  await Promise.all(Array.from({ length: STDIO_IN_FLIGHT }, worker));
}

/** One HTTP call; a planned cancel drops the request (closing the stream is the cancel). */
async function httpCall(
  call: Planned,
  send: (signal?: AbortSignal) => Promise<Outcome>,
  transport: string,
): Promise<void> {
  const controller = call.cancelAfterMs === undefined ? undefined : new AbortController();
  const timer = controller && setTimeout(() => controller.abort(), call.cancelAfterMs);
  try {
    record(call, await send(controller?.signal), transport);
  } catch (error) {
    tally.calls++;
    unexpected(
      `${transport}: ${call.method} ${JSON.stringify(call.params).slice(0, 100)} threw ${(error as Error).message}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** `count` calls over HTTP: half the workers hold legacy sessions (rotated), half go stateless. */
async function httpCalls(url: string, count: number): Promise<void> {
  let next = 0;
  const legacyWorker = async () => {
    let session: LegacyHttpSession | undefined;
    let left = 0;
    while (next++ < count) {
      if (!session || left-- <= 0) {
        if (session) await retire(session);
        session = await LegacyHttpSession.open(url);
        tally.sessions.opened++;
        left = 200 + Math.floor(rand() * 600);
      }
      const call = plan(rand);
      const current = session;
      await httpCall(
        call,
        (signal) => current.call(call.method, call.params, signal),
        'http legacy',
      );
    }
    if (session) await retire(session);
  };
  const modernWorker = async () => {
    while (next++ < count) {
      const call = plan(rand);
      await httpCall(
        call,
        (signal) => modernCall(url, call.method, call.params, signal),
        'http 2026',
      );
    }
  };
  await Promise.all(
    Array.from({ length: HTTP_WORKERS }, (_, i) => (i % 2 === 0 ? legacyWorker() : modernWorker())),
  );
}

/** Ends a session with DELETE, or (one in ten) walks away and leaves it to idle expiry. */
async function retire(session: LegacyHttpSession): Promise<void> {
  if (rand() < 0.1) {
    tally.sessions.abandoned++;
    return;
  }
  await session.close().catch((error: Error) => unexpected(`DELETE: ${error.message}`));
  tally.sessions.deleted++;
}

/** A stdio client that hangs up (EOF) with calls in flight; its server must exit cleanly. */
async function hangUp(): Promise<void> {
  const client = new SoakStdioClient([SERVER, '--stdio-only']);
  const init = await client.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {} },
    clientInfo: { name: 'soak', version: '1' },
  });
  if (!('result' in init)) unexpected(`hang-up initialize: ${JSON.stringify(init)}`);
  client.notify('notifications/initialized');
  const calls = Array.from({ length: 20 }, () => plan(rand));
  const outcomes = calls.map((call) => client.request(call.method, call.params));
  const exit = await client.close();
  tally.hangUps.episodes++;
  tally.hangUps.exitCodes[String(exit.code)] =
    (tally.hangUps.exitCodes[String(exit.code)] ?? 0) + 1;
  if (exit.code !== 0)
    unexpected(`hung-up server exited with ${JSON.stringify(exit)}: ${client.stderr.slice(-500)}`);
  // What was answered before EOF must be right; the rest was cut off by the hang-up.
  for (const [i, outcome] of (await Promise.all(outcomes)).entries())
    if (!('cancelled' in outcome)) record(calls[i], outcome, 'stdio hang-up');
}

async function hangUps(until: () => boolean): Promise<void> {
  while (!until()) {
    await hangUp();
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** RSS and heap of the server after a full collection, in MiB. */
async function settled(client: SoakStdioClient): Promise<{ rss: number; heap: number }> {
  await client.request('tools/call', { name: 'gc', arguments: {} });
  await new Promise((r) => setTimeout(r, 500));
  const answer = await client.request('tools/call', { name: 'gc', arguments: {} });
  const heap =
    'result' in answer ? Number(answer.result.content[0].text) / 1024 / 1024 : Number.NaN;
  return { rss: rssKb(client.child.pid!) / 1024, heap };
}

async function main(): Promise<void> {
  const client = new SoakStdioClient(['--expose-gc', SERVER]);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /soak http (\S+)/.exec(client.stderr);
      if (match) resolve(match[1]);
    };
    client.child.stderr.on('data', onData);
    client.exited.then((exit) =>
      reject(new Error(`server exited ${JSON.stringify(exit)}: ${client.stderr}`)),
    );
  });
  const init = await client.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {} },
    clientInfo: { name: 'soak', version: '1' },
  });
  if (!('result' in init)) throw new Error(`initialize: ${JSON.stringify(init)}`);
  client.notify('notifications/initialized');
  const pid = client.child.pid!;
  const start = await settled(client);
  const rss = { startMb: start.rss, afterWarmupMb: 0, endMb: 0, peakMb: 0 };
  const heap = { startMb: start.heap, afterWarmupMb: 0, endMb: 0 };
  const started = Date.now();

  log(`warm-up: ${WARMUP} calls`);
  await Promise.all([stdioCalls(client, WARMUP / 2), httpCalls(url, WARMUP / 2)]);
  ({ rss: rss.afterWarmupMb, heap: heap.afterWarmupMb } = await settled(client));
  const warmupTally = { calls: tally.calls, unexpected: tally.unexpected };

  log(
    `soak: ${CALLS} calls over stdio and HTTP, with cancels, dropped requests, abandoned sessions and hang-ups`,
  );
  const soakStarted = Date.now();
  let done = false;
  const episodes = hangUps(() => done);
  await Promise.all([stdioCalls(client, CALLS / 2), httpCalls(url, CALLS / 2)]);
  done = true;
  await episodes;
  const soakSeconds = (Date.now() - soakStarted) / 1000;
  // Let idle expiry reap the abandoned sessions (3 s idle, swept every 3 s), then measure.
  await new Promise((r) => setTimeout(r, 7_000));
  ({ rss: rss.endMb, heap: heap.endMb } = await settled(client));
  rss.peakMb = peakRssKb(pid) / 1024;
  const exit = await client.close();
  if (exit.code !== 0)
    unexpected(`server exited with ${JSON.stringify(exit)}: ${client.stderr.slice(-500)}`);

  const growthPct = ((rss.endMb - rss.afterWarmupMb) / rss.afterWarmupMb) * 100;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    warmup: warmupTally,
    calls: tally.calls,
    soakCalls: tally.calls - warmupTally.calls,
    soakSeconds,
    totalSeconds: (Date.now() - started) / 1000,
    byKind: tally.byKind,
    byTransport: tally.byTransport,
    cancelledWithoutAnswer: tally.cancelled,
    lateAnswersAfterCancel: client.lateAnswers,
    httpSessions: tally.sessions,
    hangUps: tally.hangUps,
    rssMb: { ...rss, growthAfterWarmupPct: Number(growthPct.toFixed(1)) },
    heapAfterGcMb: heap,
    unexpectedErrors: tally.unexpected,
    unexpectedSamples: tally.samples,
  };
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}soak.json`, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const fmt = (mb: number) => `${mb.toFixed(1)} MiB`;
  log(
    `RSS: start ${fmt(rss.startMb)}, after warm-up ${fmt(rss.afterWarmupMb)}, end ${fmt(rss.endMb)} (${growthPct.toFixed(1)} %), peak ${fmt(rss.peakMb)}`,
  );
  log(
    `heap after GC: start ${fmt(heap.startMb)}, after warm-up ${fmt(heap.afterWarmupMb)}, end ${fmt(heap.endMb)}`,
  );
  log(`${report.soakCalls} calls in ${soakSeconds.toFixed(1)} s; ${tally.unexpected} unexpected`);
  if (tally.unexpected > 0 || growthPct > 10) process.exitCode = 1;
}

await main();
