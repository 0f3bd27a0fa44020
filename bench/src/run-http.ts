// Benchmarks Streamable HTTP: mcp-fw (legacy sessions and stateless 2026-07-28 calls), the
// official SDK v2 (sessionful, JSON and SSE answers) and a bare node:http responder, each over 16
// keep-alive connections (one legacy session each) with 4 pipelined calls in flight on each, so
// that the server, not the client, is the bottleneck.
// Usage: `npm run bench:http` (builds first). Not a test: it asserts nothing about timing, it
// only reports (and fails if a server answers wrongly).
import { envInt, nodeArgs } from './config.js';
import { clientKind, LegacySession, modernAdd, openConnection } from './http-client.js';
import { startHttpServer, killHttpServers } from './http-proc.js';
import { httpRows, httpTable, httpTargets } from './http-report.js';
import { HTTP_SERVER_NAMES, HTTP_SERVERS, type HttpServerName } from './http-servers.js';
import { load, type Load } from './load.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, idleShare, Interference, peakRssKb, rssKb } from './proc.js';
import { printVerdicts, reportHeader, runScript, writeReport } from './script.js';
import { median, quantile, withTimeout } from './stats.js';

const config = {
  connections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  // Calls in flight per connection (pipelined). With one, a 2-CPU machine leaves the server idle
  // while the client works, and the server then pays a wake-up per call that a busy one does not.
  depth: envInt('BENCH_HTTP_DEPTH', 4),
  // RSS is read after each third of the calls; the first third is the warm-up.
  calls: envInt('BENCH_HTTP_CALLS', 240_000),
  // Sessions created one after another once the server is warm (after 20 discarded ones).
  sessions: envInt('BENCH_HTTP_SESSIONS', 200),
};
const checkpoints = [1, 2, 3].map((i) => Math.round((config.calls * i) / 3));
const selected = (process.env.BENCH_HTTP_SERVERS?.split(',').filter(Boolean) ??
  HTTP_SERVER_NAMES) as HttpServerName[];
const ticksPerSecond = clockTicksPerSecond();
const MINUTES = 60_000;
const step = (what: string) => process.stderr.write(`  ${what}\n`);

export interface HttpResult {
  /** The measured calls: from the first checkpoint to the last (after the warm-up third). */
  calls: Load;
  sessions: { count: number; medianMs: number; p99Ms: number; firstMedianMs: number };
  /** VmRSS at each checkpoint, counted in tools/call requests since the server started. */
  rssMb: number[];
  rssGrowthPct: number;
  peakRssMb: number;
}

async function measure(name: HttpServerName): Promise<HttpResult> {
  const { script, args, era } = HTTP_SERVERS[name];
  const server = await startHttpServer(script, args, nodeArgs);
  const connections = Array.from({ length: config.connections }, () => openConnection(server.url));
  try {
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
    const rssMb = () => rssKb(server.pid) / 1024;
    step(`${name}: warm-up (${checkpoints[0]} calls)`);
    await withTimeout(
      load(server.pid, workers, checkpoints[0], ticksPerSecond),
      5 * MINUTES,
      `${name} warm-up`,
    );
    const rss = [rssMb()];
    step(
      `${name}: ${config.calls - checkpoints[0]} calls on ${config.connections} connections, ${config.depth} in flight on each`,
    );
    const middle = checkpoints[1] - checkpoints[0];
    const measured = load(
      server.pid,
      workers,
      config.calls - checkpoints[0],
      ticksPerSecond,
      (done) => {
        if (done === middle) rss.push(rssMb());
      },
    );
    const calls = await withTimeout(measured, 10 * MINUTES, `${name} calls`);
    rss.push(rssMb());
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
    return {
      calls,
      sessions: {
        count: times.length,
        medianMs: median(times),
        p99Ms: quantile(times, 0.99),
        firstMedianMs: median(first),
      },
      rssMb: rss,
      rssGrowthPct: ((rss.at(-1)! - rss[0]) / rss[0]) * 100,
      peakRssMb,
    };
  } finally {
    for (const connection of connections) connection.close();
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
  for (const name of selected) results[name] = await measure(name);
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
