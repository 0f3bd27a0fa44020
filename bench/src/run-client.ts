// `npm run bench:client`: the client's CPU per call against the bare floor server, over stdio
// and Streamable HTTP, for three clients in the same run: `bare` (the client floor: JSON lines
// or fetch, an id map, JSON.parse), `mcp-fw` (@mcp-fw/client) and `sdk-v2`
// (@modelcontextprotocol/client 2.4.0). Each measurement is a fresh client process
// (client-driver.ts) so that only its CPU is counted; subjects take turns within each round and
// the median of the rounds is reported. A benchmark, not a test: it fails only on a wrong answer.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { envInt, serverRuntime } from './config.js';
import { killHttpServers, startHttpServer } from './http-proc.js';
import { machineFacts, sourceState } from './machine.js';
import { clockTicksPerSecond, Interference } from './proc.js';
import { median } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const DRIVER = here('./client-driver.js');
const BARE_STDIO = here('./bare-server.js');
const BARE_HTTP = here('./http-bare-server.js');
const CLIENTS = (process.env.BENCH_CLIENTS ?? 'bare,mcp-fw,sdk-v2').split(',');
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const TRANSPORTS = (process.env.BENCH_CLIENT_TRANSPORTS ?? 'stdio,http').split(',');
// A V8 CPU profile of every driver (`node --cpu-prof`) into this folder, for
// `node bench/dist/profile-summary.js <file>`. Profiling costs CPU: figures of such a run are
// for finding where the time goes, not for the report.
const PROFILE_DIR = process.env.BENCH_CLIENT_PROFILE;
const profileArgs = (name: string) =>
  PROFILE_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${PROFILE_DIR}`,
        `--cpu-prof-name=${name}.cpuprofile`,
        '--cpu-prof-interval=100',
      ]
    : [];
const PHASES = (
  [
    { transport: 'stdio', inFlight: 1, calls: envInt('BENCH_STDIO_CALLS', 5_000) },
    { transport: 'stdio', inFlight: 16, calls: envInt('BENCH_STDIO_CALLS', 5_000) * 2 },
    { transport: 'http', inFlight: 1, calls: envInt('BENCH_HTTP_CALLS', 1_000) },
    { transport: 'http', inFlight: 16, calls: envInt('BENCH_HTTP_CALLS', 1_000) * 2 },
  ] as const
).filter((phase) => TRANSPORTS.includes(phase.transport));

interface Sample {
  readonly cpuUs: number;
  readonly ms: number;
  readonly calls: number;
}

process.on('exit', killHttpServers);
const interference = new Interference();
const http = await startHttpServer(BARE_HTTP);
const samples = new Map<string, Sample[]>();
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const phase of PHASES) {
      const target = phase.transport === 'stdio' ? BARE_STDIO : http.url;
      for (const client of CLIENTS) {
        const line = execFileSync(
          serverRuntime,
          [
            ...profileArgs(`${client}-${phase.transport}-${phase.inFlight}-round${round}`),
            DRIVER,
            client,
            phase.transport,
            target,
            String(phase.calls),
            String(phase.inFlight),
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 },
        );
        const sample = JSON.parse(line.trim().split('\n').pop() as string) as Sample;
        const key = `${phase.transport} ${phase.inFlight} ${client}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        process.stderr.write(
          `round ${round}: ${key}: ${(sample.cpuUs / sample.calls).toFixed(1)} µs CPU/call\n`,
        );
      }
    }
  }
} finally {
  await http.close();
}

const perCall = (key: string) => {
  const list = samples.get(key);
  return list ? median(list.map((s) => s.cpuUs / s.calls)) : Number.NaN;
};
const rows = PHASES.map((phase) => {
  const at = (client: string) => perCall(`${phase.transport} ${phase.inFlight} ${client}`);
  return {
    phase: `${phase.transport}, ${phase.inFlight} in flight`,
    bare: at('bare'),
    mcpFw: at('mcp-fw'),
    sdkV2: at('sdk-v2'),
    mcpFwOverBare: at('mcp-fw') / at('bare'),
    sdkV2OverBare: at('sdk-v2') / at('bare'),
    mcpFwOverSdkV2: at('mcp-fw') / at('sdk-v2'),
  };
});
const share = interference.share();
const report = {
  machine: machineFacts(clockTicksPerSecond()),
  source: sourceState(),
  rounds: ROUNDS,
  otherProcessesCpuShare: share,
  rows,
  samples: Object.fromEntries(samples),
};
mkdirSync(here('../results'), { recursive: true });
const file = here(`../results/client-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
const r = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '—');
console.log(
  '| client CPU per call, µs (median of rounds) | bare | mcp-fw | sdk-v2 | mcp-fw / bare | sdk-v2 / bare | mcp-fw / sdk-v2 |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows)
  console.log(
    `| ${row.phase} | ${f(row.bare)} | ${f(row.mcpFw)} | ${f(row.sdkV2)} | ${r(row.mcpFwOverBare)} | ${r(row.sdkV2OverBare)} | ${r(row.mcpFwOverSdkV2)} |`,
  );
console.log(
  `\nother processes used ${(share * 100).toFixed(0)} % of the machine's CPU during the run${share > 0.05 ? ' (WARNING: above 5 %, figures are noisy)' : ''}`,
);
console.log(`report: ${file}`);
