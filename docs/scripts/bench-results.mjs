#!/usr/bin/env node
// Turns the benchmark reports in bench/results/ into docs/data/bench.json, the committed file the
// performance page draws its charts from: stdio (latest.json, `npm run bench`), Streamable HTTP
// (http.json, `npm run bench:http`), held streams (streams.json, `npm run bench:streams`) and
// other runtimes (runtimes.json, `npm run bench:runtimes`). `npm run bench:site` runs all four
// and then this; a report that is missing leaves its charts out.
//
//   node docs/scripts/bench-results.mjs [bench/results]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(DOCS, '..');

/** The charts: what each shows and how to read it from one server's result. */
const METRICS = [
  [
    'cpu-per-call',
    'Server CPU per pipelined tools/call',
    'µs',
    'lower',
    (r) => r.pipelined.cpuUsPerCall,
    2,
  ],
  [
    'pipelined',
    'Pipelined tools/call throughput, 64 in flight',
    'calls/s',
    'higher',
    (r) => r.pipelined.callsPerSecond,
    0,
  ],
  [
    'sequential-p50',
    'Sequential tools/call round trip, median',
    'µs',
    'lower',
    (r) => r.sequential.p50Us,
    0,
  ],
  [
    'cold-start',
    'Cold start: spawn to initialize answer, median',
    'ms',
    'lower',
    (r) => r.coldStart.medianMs,
    1,
  ],
  [
    'tools-list',
    'tools/list with 1,002 tools, median',
    'ms',
    'lower',
    (r) => r.toolsList.medianMs,
    2,
  ],
  ['peak-rss', 'Peak RSS after all call phases', 'MB', 'lower', (r) => r.peakRssMb, 1],
];

const LABELS = {
  bare: 'bare floor',
  'mcp-fw': 'mcp-fw',
  'sdk-v2': 'official SDK v2',
  fastmcp: 'fastmcp (punkpeye)',
};

const HTTP_LABELS = {
  bare: 'bare node:http floor',
  'mcp-fw': 'mcp-fw, legacy session',
  'mcp-fw-2026': 'mcp-fw, 2026-07-28',
  'mcp-fw-jwt': 'mcp-fw + JWT check',
  'sdk-v2': 'official SDK v2',
  'sdk-v2-sse': 'official SDK v2, SSE answers',
  fastmcp: 'fastmcp (punkpeye)',
};

/** The HTTP charts: [id, title, unit, better, value of one subject's result, digits]. */
const HTTP_METRICS = [
  [
    'http-cpu-per-call',
    'Streamable HTTP: server CPU per tools/call, client polling',
    'µs',
    'lower',
    (r) => r.calls.cpuUsPerCall,
    1,
  ],
  [
    'http-cpu-asleep',
    'Streamable HTTP: server CPU per tools/call, client asleep between answers',
    'µs',
    'lower',
    (r) => r.callsAsleep.cpuUsPerCall,
    1,
  ],
  [
    'http-calls-per-second',
    'Streamable HTTP: tools/call throughput, 64 in flight on 16 connections',
    'calls/s',
    'higher',
    (r) => r.calls.callsPerSecond,
    0,
  ],
  [
    'http-session',
    'Streamable HTTP: create a session (initialize), median',
    'ms',
    'lower',
    (r) => r.sessions.medianMs,
    2,
  ],
  [
    'http-rss',
    'Streamable HTTP: RSS at the end of the calls',
    'MB',
    'lower',
    (r) => r.rssMb.at(-1),
    1,
  ],
];

const STREAM_KINDS = { 'legacy-get': 'legacy GET stream', listen: '2026-07-28 listen stream' };

const RUNTIME_LABELS = {
  'floor (node:http)': 'bare node:http floor',
  node: 'mcp-fw on Node',
  bun: 'mcp-fw on Bun',
  deno: 'mcp-fw on Deno',
  'workerd floor': 'bare Worker (workerd)',
  workerd: 'mcp-fw on workerd',
};

const round = (value, digits) => Number(value.toFixed(digits));

/** What the page says of one report: where it came from and how busy the machine was. */
function run(command, report) {
  const commit = (report.source?.commit ?? 'unknown').slice(0, 7);
  return {
    command,
    date: report.date,
    commit: `${commit}${report.source?.dirty ? ' with uncommitted edits' : ''}`,
    otherCpuPercent: Math.round((report.machine?.otherCpuShare ?? 0) * 100),
  };
}

/**
 * One chart per metric, a bar per subject of `results` that has the figure (a stateless
 * 2026-07-28 subject opens no session, so it has no session figure).
 */
function charts(metrics, results, labels) {
  const subjects = Object.keys(results);
  return metrics.map(([id, title, unit, better, value, digits]) => ({
    id,
    title,
    unit,
    better,
    values: subjects
      .filter((name) => typeof value(results[name]) === 'number')
      .map((name) => ({
        subject: labels[name] ?? name,
        value: round(value(results[name]), digits),
      })),
  }));
}

const stdioMetrics = (report) => charts(METRICS, report.results, LABELS);
const httpMetrics = (report) => charts(HTTP_METRICS, report.results, HTTP_LABELS);

function streamMetrics(report) {
  const perStream = (m, key) => (m.after[key] - m.before[key]) / 1024 / report.streams;
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const kinds = Object.keys(report.results);
  const each = (f, digits) =>
    kinds.flatMap((kind) =>
      Object.entries(report.results[kind]).map(([subject, m]) => ({
        subject: `${LABELS[subject] ?? subject}, ${STREAM_KINDS[kind] ?? kind}`,
        value: round(f(m), digits),
      })),
    );
  const held = report.streams.toLocaleString('en-US');
  return [
    {
      id: 'streams-rss',
      title: `${held} held streams: RSS per stream`,
      unit: 'KB',
      better: 'lower',
      values: each((m) => perStream(m, 'rss'), 1),
    },
    {
      id: 'streams-fanout',
      title: `${held} held streams: one notification to all of them, median`,
      unit: 'ms',
      better: 'lower',
      values: each((m) => median(m.fanout.map((f) => f.lastMs)), 0),
    },
  ];
}

function runtimeMetrics(report) {
  const calls = Object.entries(report.calls ?? {});
  const chart = (id, era, title) => ({
    id,
    title,
    unit: 'µs',
    better: 'lower',
    values: calls
      .filter(([key]) => key.endsWith(`, ${era}`))
      .map(([key, result]) => {
        const subject = key.slice(0, -`, ${era}`.length);
        return {
          subject: RUNTIME_LABELS[subject] ?? subject,
          value: round(result.cpuUsPerCall.median, 0),
        };
      }),
  });
  return [
    chart('runtimes-legacy', 'legacy', 'Server CPU per legacy-session tools/call, by runtime'),
    chart('runtimes-2026', '2026-07-28', 'Server CPU per 2026-07-28 tools/call, by runtime'),
  ].filter((metric) => metric.values.length > 0);
}

/**
 * The chart data of the benchmark reports: `stdio` is required (its date, machine and Node are
 * the page's), the others add their charts when given.
 */
export function benchData({ stdio, http, streams, runtimes }) {
  const runs = [run('npm run bench', stdio)];
  const metrics = stdioMetrics(stdio);
  for (const [command, report, charts] of [
    ['npm run bench:http', http, httpMetrics],
    ['npm run bench:streams', streams, streamMetrics],
    ['npm run bench:runtimes', runtimes, runtimeMetrics],
  ]) {
    if (!report) continue;
    runs.push(run(command, report));
    metrics.push(...charts(report));
  }
  const busiest = Math.max(...runs.map((r) => r.otherCpuPercent));
  return {
    source: runs.map((r) => `${r.command} (commit ${r.commit})`).join('; '),
    date: stdio.date,
    machine: `${stdio.machine.nproc ?? '?'} CPUs (${stdio.machine.cpu ?? 'unknown CPU'}, ${stdio.machine.platform ?? ''}); other processes took at most ${busiest} % of the CPU during a run`,
    node: stdio.machine.node ?? process.version,
    config: stdio.config,
    runs,
    metrics,
  };
}

/** Reads the reports of `dir` (bench/results by default); latest.json must be there. */
export function readReports(dir) {
  const read = (file) =>
    existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) : undefined;
  const stdio = read('latest.json');
  if (!stdio) throw new Error(`${join(dir, 'latest.json')} is missing: run npm run bench first`);
  return {
    stdio,
    http: read('http.json'),
    streams: read('streams.json'),
    runtimes: read('runtimes.json'),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(ROOT, 'bench/results'));
  const data = benchData(readReports(dir));
  writeFileSync(join(DOCS, 'data/bench.json'), `${JSON.stringify(data, null, 2)}\n`);
  process.stdout.write(`docs/data/bench.json: ${data.metrics.length} charts from ${dir}\n`);
}
