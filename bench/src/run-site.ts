// `npm run bench:site`: every benchmark the performance page draws, one after the other on the
// same machine, then docs/data/bench.json made from their reports. One command reproduces the
// page; run it on a quiet machine and commit the JSON.
//
//   npm run bench:site                 # the full run (about an hour on 2 CPUs)
//   BENCH_SITE_PARTS=stdio,http npm run bench:site
//   BENCH_SITE_QUICK=1 npm run bench:site   # shortened phases: checks the pipeline, not the figures
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Part {
  /** The script in bench/dist, and the `npm run` name the page cites. */
  script: string;
  env: Record<string, string>;
  /** Shorter phases for BENCH_SITE_QUICK=1. */
  quick: Record<string, string>;
}

const PARTS: Record<string, Part> = {
  stdio: {
    script: 'run.js',
    // The page compares frameworks: SDK v2 and punkpeye's fastmcp beside mcp-fw and the floor.
    env: { BENCH_SERVERS: 'bare,mcp-fw,sdk-v2,fastmcp' },
    quick: {
      BENCH_WARMUP_CALLS: '1000',
      BENCH_SEQUENTIAL_CALLS: '500',
      BENCH_SEQUENTIAL_RUNS: '1',
      BENCH_PIPELINED_CALLS: '5000',
      BENCH_COLD_SPAWNS: '2',
      BENCH_LIST_REQUESTS: '20',
    },
  },
  http: {
    script: 'run-http.js',
    env: { BENCH_HTTP_SERVERS: 'bare,mcp-fw,mcp-fw-2026,sdk-v2,fastmcp' },
    quick: { BENCH_HTTP_CALLS: '12000', BENCH_HTTP_ROUNDS: '2', BENCH_HTTP_SESSIONS: '20' },
  },
  streams: {
    script: 'run-streams.js',
    env: {},
    quick: {
      BENCH_STREAMS: '500',
      BENCH_STREAM_CALLS: '200',
      BENCH_STREAM_ROUNDS: '3',
      BENCH_STREAM_WARMUP: '200',
      BENCH_STREAM_IDLE_MS: '1000',
      BENCH_STREAM_FANOUTS: '2',
    },
  },
  runtimes: {
    script: 'run-runtimes.js',
    env: {},
    quick: {
      BENCH_RUNTIMES_ROUNDS: '1',
      BENCH_RUNTIMES_CALLS: '2000',
      BENCH_RUNTIMES_WARMUP_CALLS: '1000',
      BENCH_RUNTIMES_COLD_SPAWNS: '2',
    },
  },
};

const quick = process.env.BENCH_SITE_QUICK === '1';
const selected = process.env.BENCH_SITE_PARTS?.split(',').filter(Boolean) ?? Object.keys(PARTS);
const unknown = selected.filter((name) => !(name in PARTS));
if (unknown.length) {
  console.error(
    `unknown parts in BENCH_SITE_PARTS: ${unknown.join(', ')} (known: ${Object.keys(PARTS).join(', ')})`,
  );
  process.exit(2);
}

for (const name of selected) {
  const part = PARTS[name];
  console.log(`\n== ${name}: node bench/dist/${part.script}${quick ? ' (quick)' : ''}`);
  const done = spawnSync(process.execPath, [fileURLToPath(new URL(part.script, import.meta.url))], {
    stdio: 'inherit',
    // The caller's own BENCH_* settings win over the page's defaults.
    env: { ...part.env, ...(quick ? part.quick : {}), ...process.env },
  });
  if (done.status !== 0) {
    console.error(
      `bench:site: ${name} failed (exit ${done.status ?? done.signal}); no page data written`,
    );
    process.exit(1);
  }
}

const results = spawnSync(
  process.execPath,
  [fileURLToPath(new URL('../../docs/scripts/bench-results.mjs', import.meta.url))],
  { stdio: 'inherit' },
);
process.exit(results.status ?? 1);
