// Both protocol eras on one mcp-fw server: per-call server CPU of a 2026-07-28 call against a
// legacy (2025-11-25) call, over Streamable HTTP (stateless enveloped POSTs vs session POSTs)
// and over stdio (a connection pinned to 2026-07-28 by its first enveloped request vs one opened
// with initialize). Usage: `npm run bench:eras` (builds first). Not a test: it only reports.
import { fileURLToPath } from 'node:url';
import { killAll, StdioClient } from './client.js';
import { envInt, nodeArgs } from './config.js';
import {
  LegacySession,
  clientKind,
  envelopeKind,
  legacyMeta,
  modernAdd,
  openConnection,
} from './http-client.js';
import { killHttpServers, startHttpServer } from './http-proc.js';
import { HTTP_SERVERS } from './http-servers.js';
import { combineLoads, load, type Load } from './load.js';
import { machineFacts } from './machine.js';
import { callAdd, callModernAdd, connect } from './measure.js';
import { clockTicksPerSecond, idleShare, Interference } from './proc.js';
import { printVerdicts, reportHeader, runScript, writeReport } from './script.js';
import { withTimeout } from './stats.js';

const config = {
  rounds: envInt('BENCH_ERAS_ROUNDS', 4),
  warmupCalls: envInt('BENCH_ERAS_WARMUP_CALLS', 20_000),
  httpCalls: envInt('BENCH_ERAS_HTTP_CALLS', 40_000),
  httpConnections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  // 200,000 so that even the stdio floor accrues ~40 clock ticks per block.
  stdioCalls: envInt('BENCH_ERAS_STDIO_CALLS', 200_000),
  stdioInFlight: envInt('BENCH_IN_FLIGHT', 64),
};
type Transport = 'HTTP' | 'stdio';
/** `BENCH_ERAS=stdio` (or `http`) measures one transport only. */
const transports: Transport[] = (process.env.BENCH_ERAS ?? 'http,stdio')
  .split(',')
  .map((t) => (t.trim().toLowerCase() === 'http' ? 'HTTP' : (t.trim() as Transport)));
/** The floor runs too: what the 2026-07-28 wire (envelope in, result envelope out) costs alone. */
const STDIO_SERVERS = {
  'mcp-fw': fileURLToPath(new URL('./mcp-fw-server.js', import.meta.url)),
  bare: fileURLToPath(new URL('./bare-server.js', import.meta.url)),
};
type Subject = keyof typeof STDIO_SERVERS;
const ticksPerSecond = clockTicksPerSecond();
const MINUTES = 60_000;
const step = (what: string) => process.stderr.write(`  ${what}\n`);

type Era = 'legacy' | 'modern';
interface EraLoad {
  pid: number;
  workers: (() => Promise<void>)[];
}

export interface EraComparison {
  /** Every measured block, in the order run. */
  blocks: { era: Era; load: Load }[];
  /** Each era's rounds together. */
  legacy: Load;
  modern: Load;
  /** modern ÷ legacy server CPU per call, over all rounds. */
  ratio: number;
  ratioSchedstat: number;
  /** The same ratio within each round (its spread shows the noise). */
  roundRatios: number[];
}

/** Warms both paths up, then alternates them round by round (ABBA), so drift hits both alike. */
async function compare(
  label: string,
  subjects: Record<Era, EraLoad>,
  calls: number,
): Promise<EraComparison> {
  for (const era of ['legacy', 'modern'] as const) {
    step(`${label}: warm-up, ${era} (${config.warmupCalls} calls)`);
    const { pid, workers } = subjects[era];
    await withTimeout(
      load(pid, workers, config.warmupCalls, ticksPerSecond),
      5 * MINUTES,
      `${label} ${era} warm-up`,
    );
  }
  const blocks: EraComparison['blocks'] = [];
  const roundRatios: number[] = [];
  for (let round = 0; round < config.rounds; round++) {
    const order: Era[] = round % 2 === 0 ? ['legacy', 'modern'] : ['modern', 'legacy'];
    step(
      `${label}: round ${round + 1} of ${config.rounds} (${order.join(', then ')}; ${calls} calls each)`,
    );
    const perEra = {} as Record<Era, Load>;
    for (const era of order) {
      const { pid, workers } = subjects[era];
      perEra[era] = await withTimeout(
        load(pid, workers, calls, ticksPerSecond),
        5 * MINUTES,
        `${label} ${era}`,
      );
      blocks.push({ era, load: perEra[era] });
    }
    roundRatios.push(perEra.modern.cpuUsPerCall / perEra.legacy.cpuUsPerCall);
  }
  const of = (era: Era) => combineLoads(blocks.filter((b) => b.era === era).map((b) => b.load));
  const legacy = of('legacy');
  const modern = of('modern');
  return {
    blocks,
    legacy,
    modern,
    ratio: modern.cpuUsPerCall / legacy.cpuUsPerCall,
    ratioSchedstat: modern.cpuUsPerCallSchedstat / legacy.cpuUsPerCallSchedstat,
    roundRatios,
  };
}

async function http(subject: Subject): Promise<EraComparison> {
  const { script, args } = HTTP_SERVERS[subject];
  const server = await startHttpServer(script, args, nodeArgs);
  const n = config.httpConnections;
  const legacyConnections = Array.from({ length: n }, () => openConnection(server.url));
  const modernConnections = Array.from({ length: n }, () => openConnection(server.url));
  try {
    const sessions: LegacySession[] = [];
    for (const connection of legacyConnections)
      sessions.push((await LegacySession.open(connection)).session);
    return await compare(
      `HTTP ${subject}`,
      {
        legacy: { pid: server.pid, workers: sessions.map((s) => () => s.add()) },
        modern: { pid: server.pid, workers: modernConnections.map((c) => () => modernAdd(c)) },
      },
      config.httpCalls,
    );
  } finally {
    for (const c of [...legacyConnections, ...modernConnections]) c.close();
    await server.close();
  }
}

async function stdio(subject: Subject): Promise<EraComparison> {
  const { client: legacy } = await connect(STDIO_SERVERS[subject], { nodeArgs });
  const modern = new StdioClient(STDIO_SERVERS[subject], { nodeArgs });
  try {
    const slots = (call: () => Promise<unknown>) =>
      Array.from({ length: config.stdioInFlight }, () => async () => void (await call()));
    return await compare(
      `stdio ${subject}`,
      {
        legacy: { pid: legacy.pid, workers: slots(() => callAdd(legacy, legacyMeta)) },
        modern: { pid: modern.pid, workers: slots(() => callModernAdd(modern)) },
      },
      config.stdioCalls,
    );
  } finally {
    await Promise.all([legacy.close(), modern.close()]);
  }
}

/** A legacy / 2026-07-28 pair of figures for one cell. */
const both = (r: EraComparison, f: (s: Load) => string) => `${f(r.legacy)} / ${f(r.modern)}`;

function table(results: Record<string, EraComparison>): string {
  const f = (v: number, d = 2) =>
    v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const lines = [
    '| transport, server | legacy µs/call | 2026-07-28 µs/call | modern / legacy | (schedstat) | per round | user + system µs/call | calls/s | server reads + writes per call | harness µs/call |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|',
  ];
  for (const [name, r] of Object.entries(results)) {
    const rounds = r.roundRatios.map((x) => x.toFixed(2)).join(', ');
    lines.push(
      `| ${name} | ${f(r.legacy.cpuUsPerCall)} | ${f(r.modern.cpuUsPerCall)} | ${f(r.ratio)}× | ${f(r.ratioSchedstat)}× | ${rounds} | ` +
        `${both(r, (s) => `${f(s.userUsPerCall)} + ${f(s.systemUsPerCall)}`)} | ${both(r, (s) => f(s.callsPerSecond, 0))} | ${both(r, (s) => `${f(s.readsPerCall)} + ${f(s.writesPerCall)}`)} | ` +
        `${both(r, (s) => f(s.harnessCpuUsPerCall, 1))} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const machine = { ...machineFacts(ticksPerSecond), idleShareAtStart: await idleShare(1000) };
  process.stderr.write(
    `mcp-fw eras benchmark, ${envelopeKind} envelope, node ${machine.node}, ${machine.nproc} CPUs (${machine.cpu})\n`,
  );
  if (machine.idleShareAtStart < 0.9) {
    const busy = Math.round(100 * (1 - machine.idleShareAtStart));
    process.stderr.write(
      `warning: the machine was ${busy}% busy before the run; figures will be noisy\n`,
    );
  }
  const interference = new Interference();
  const results: Record<string, EraComparison> = {};
  for (const subject of ['mcp-fw', 'bare'] as const) {
    if (transports.includes('HTTP')) results[`HTTP ${subject}`] = await http(subject);
    if (transports.includes('stdio')) results[`stdio ${subject}`] = await stdio(subject);
  }
  const otherCpuShare = interference.share();

  const ours = Object.entries(results).filter(([name]) => name.endsWith('mcp-fw'));
  const verdicts = ours.map(([name, r]) => ({
    name: `${name.replace(' mcp-fw', '')}: 2026-07-28 call ≤ 1.2× the legacy call in server CPU`,
    measured:
      `${r.ratio.toFixed(2)}× (${r.modern.cpuUsPerCall.toFixed(2)} vs ${r.legacy.cpuUsPerCall.toFixed(2)} µs; schedstat ${r.ratioSchedstat.toFixed(2)}×; ` +
      `rounds ${Math.min(...r.roundRatios).toFixed(2)}–${Math.max(...r.roundRatios).toFixed(2)}×)`,
    pass: r.ratio <= 1.2,
  }));
  console.log(`\n${table(results)}\n`);
  printVerdicts(verdicts, otherCpuShare);

  const report = {
    ...reportHeader(machine, otherCpuShare),
    config: { ...config, client: clientKind, envelope: envelopeKind },
    nodeArgs,
    results,
    targets: verdicts,
  };
  writeReport('eras.json', report);
}

const killEverything = () => {
  killAll();
  killHttpServers();
};
runScript(main, killEverything);
