// Benchmarks Streamable HTTP: mcp-fw (legacy sessions and stateless 2026-07-28 calls), the
// official SDK v2 (sessionful, JSON and SSE answers) and a bare node:http responder, each over 16
// keep-alive connections (one legacy session each) with 4 pipelined calls in flight on each, so
// that the server, not the client, is the bottleneck.
// Usage: `npm run bench:http` (builds first). Not a test: it asserts nothing about timing, it
// only reports (and fails if a server answers wrongly).
import { envInt, nodeArgs } from './config.js';
import {
  clientKind,
  type Connection,
  LegacySession,
  modernAdd,
  openConnection,
} from './http-client.js';
import { type HttpServerProcess, killHttpServers, startHttpServer } from './http-proc.js';
import { httpRows, httpTable, httpTargets } from './http-report.js';
import { HTTP_SERVER_NAMES, HTTP_SERVERS, type HttpServerName } from './http-servers.js';
import { combineLoads, load, type Load } from './load.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, idleShare, Interference, peakRssKb, rssKb } from './proc.js';
import { printVerdicts, reportHeader, runScript, writeReport } from './script.js';
import { median, quantile, withTimeout } from './stats.js';

const config = {
  connections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  // Calls in flight per connection (pipelined). With one, a 2-CPU machine leaves the server idle
  // while the client works, and the server then pays a wake-up per call that a busy one does not.
  depth: envInt('BENCH_HTTP_DEPTH', 4),
  // Measured calls per subject; the first third is the warm-up, not counted.
  calls: envInt('BENCH_HTTP_CALLS', 240_000),
  // The other two thirds are measured in this many rounds (an even number: each subject goes
  // first as often as last).
  rounds: envInt('BENCH_HTTP_ROUNDS', 4),
  // Sessions created one after another once the server is warm (after 20 discarded ones).
  sessions: envInt('BENCH_HTTP_SESSIONS', 200),
};
const warmupCalls = Math.round(config.calls / 3);
const perWindow = Math.round((config.calls - warmupCalls) / (2 * config.rounds));
const REWARM_CALLS = 2_000;
// RSS is read after the first round, halfway and after the last: each time right after the
// subject's own windows, so that every reading follows the same kind of history (the first
// pause while the others are measured lets V8 shrink the heap, after warm-up it has not).
const rssRounds = [...new Set([1, Math.floor(config.rounds / 2), config.rounds])];
const checkpoints = rssRounds.map((round) => warmupCalls + round * (REWARM_CALLS + 2 * perWindow));
const selected = (process.env.BENCH_HTTP_SERVERS?.split(',').filter(Boolean) ??
  HTTP_SERVER_NAMES) as HttpServerName[];
const ticksPerSecond = clockTicksPerSecond();
const MINUTES = 60_000;
const step = (what: string) => process.stderr.write(`  ${what}\n`);

export interface HttpResult {
  /** The measured calls with the client polling, all rounds together. */
  calls: Load;
  /** The same with the client asleep between answers (see `LoadOptions.poll`). */
  callsAsleep: Load;
  /** Polling, server CPU per call in each round over the floor's in the same round (schedstat). */
  roundRatios?: number[];
  sessions: { count: number; medianMs: number; p99Ms: number; firstMedianMs: number };
  /** VmRSS at each checkpoint, counted in tools/call requests since the server started. */
  rssMb: number[];
  rssGrowthPct: number;
  peakRssMb: number;
}

/** A subject's server, its connections (and sessions) and what its rounds measured. */
interface Subject {
  readonly name: HttpServerName;
  readonly server: HttpServerProcess;
  readonly connections: Connection[];
  readonly opened: { session: LegacySession; initMs: number }[];
  readonly workers: (() => Promise<void>)[];
  readonly rss: number[];
  readonly polling: Load[];
  readonly asleep: Load[];
}

/** Starts a subject, opens its connections (and sessions) and warms it up. */
async function start(name: HttpServerName): Promise<Subject> {
  const { script, args, era } = HTTP_SERVERS[name];
  const server = await startHttpServer(script, args, nodeArgs);
  const connections = Array.from({ length: config.connections }, () => openConnection(server.url));
  const opened = [];
  if (era === 'legacy')
    for (const connection of connections) opened.push(await LegacySession.open(connection));
  const loops: (() => Promise<void>)[] =
    era === 'legacy'
      ? opened.map(
          ({ session }) =>
            () =>
              session.add(),
        )
      : connections.map((c) => () => modernAdd(c));
  const workers = loops.flatMap((call) => Array.from({ length: config.depth }, () => call));
  step(`${name}: warm-up (${warmupCalls} calls)`);
  await withTimeout(
    load(server.pid, workers, warmupCalls, ticksPerSecond),
    5 * MINUTES,
    `${name} warm-up`,
  );
  return { name, server, connections, opened, workers, rss: [], polling: [], asleep: [] };
}

const rssMbOf = ({ server }: Pick<Subject, 'server'>) => rssKb(server.pid) / 1024;

/**
 * The measured calls, in rounds: in each, every subject in turn (forward, then backward in the
 * next round) takes one window with the client polling and one with it asleep between answers.
 * Interleaved so that the machine's drift over the run (a shared host speeds up and slows down
 * by tens of percent) hits every subject alike, as it would not if each ran its calls at once.
 */
async function rounds(subjects: Subject[]): Promise<void> {
  for (let round = 0; round < config.rounds; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    step(
      `round ${round + 1} of ${config.rounds}: ${order.map((s) => s.name).join(', ')}; ${REWARM_CALLS} calls unmeasured, ${perWindow} polling, then ${perWindow} asleep, each`,
    );
    for (const subject of order) {
      // A server left idle while the others were measured has had its idle connections closed
      // and its heap shrunk: a few unmeasured calls bring it back to speed first.
      await withTimeout(
        load(subject.server.pid, subject.workers, REWARM_CALLS, ticksPerSecond),
        5 * MINUTES,
        `${subject.name} re-warm`,
      );
      for (const poll of [true, false]) {
        const measured = await withTimeout(
          load(subject.server.pid, subject.workers, perWindow, ticksPerSecond, undefined, {
            poll,
          }),
          10 * MINUTES,
          `${subject.name} calls`,
        );
        (poll ? subject.polling : subject.asleep).push(measured);
      }
      if (rssRounds.includes(round + 1)) subject.rss.push(rssMbOf(subject));
    }
  }
}

/** Times session creation on a subject, closes it and sums up what it measured. */
async function finish(subject: Subject, floor?: Subject): Promise<HttpResult> {
  const { name, server, opened } = subject;
  const { era } = HTTP_SERVERS[name];
  try {
    const peakRssMb = peakRssKb(server.pid) / 1024;
    const times: number[] = [];
    if (era === 'legacy')
      step(`${name}: session creation (${config.sessions} initialize round trips)`);
    const fresh = openConnection(server.url);
    for (let i = 0; era === 'legacy' && i < 20 + config.sessions; i++) {
      const { session, initMs } = await LegacySession.open(fresh);
      await session.close();
      if (i >= 20) times.push(initMs);
    }
    fresh.close();
    for (const { session } of opened) await session.close();
    const first = opened.map((o) => o.initMs);
    const { rss } = subject;
    return {
      calls: combineLoads(subject.polling),
      callsAsleep: combineLoads(subject.asleep),
      // From schedstat: a window's few hundred clock ticks are too coarse for one round.
      roundRatios: floor?.polling.map(
        (f, i) => subject.polling[i]!.cpuUsPerCallSchedstat / f.cpuUsPerCallSchedstat,
      ),
      sessions: {
        count: times.length,
        medianMs: median(times),
        p99Ms: quantile(times, 0.99),
        firstMedianMs: median(first),
      },
      rssMb: rss,
      rssGrowthPct: ((rss.at(-1)! - rss[0]!) / rss[0]!) * 100,
      peakRssMb,
    };
  } finally {
    for (const connection of subject.connections) connection.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const unknown = selected.filter((name) => !HTTP_SERVER_NAMES.includes(name));
  if (unknown.length)
    throw new Error(`unknown servers in BENCH_HTTP_SERVERS: ${unknown.join(', ')}`);
  const machine = { ...machineFacts(ticksPerSecond), idleShareAtStart: await idleShare(1000) };
  process.stderr.write(
    `mcp-fw HTTP benchmark, node ${machine.node}, ${machine.nproc} CPUs (${machine.cpu})\n`,
  );
  if (machine.idleShareAtStart < 0.9) {
    const busy = Math.round(100 * (1 - machine.idleShareAtStart));
    process.stderr.write(
      `warning: the machine was ${busy}% busy before the run; figures will be noisy\n`,
    );
  }
  const interference = new Interference();
  const results: Partial<Record<HttpServerName, HttpResult>> = {};
  const subjects: Subject[] = [];
  for (const name of selected) subjects.push(await start(name));
  await rounds(subjects);
  const floor = subjects.find((s) => s.name === 'bare');
  for (const subject of subjects) results[subject.name] = await finish(subject, floor);
  const otherCpuShare = interference.share();

  const verdicts = httpTargets(results);
  console.log(`\n${httpTable(results, httpRows(config.connections, config.depth, checkpoints))}\n`);
  printVerdicts(verdicts, otherCpuShare);

  const report = {
    ...reportHeader(machine, otherCpuShare),
    config: { ...config, checkpoints, client: clientKind },
    nodeArgs,
    results,
    targets: verdicts,
  };
  writeReport('http.json', report);
}

runScript(main, killHttpServers);
