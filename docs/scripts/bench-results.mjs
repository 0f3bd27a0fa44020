#!/usr/bin/env node
// Turns the stdio benchmark's report (bench/results/latest.json, written by `npm run bench`)
// into docs/data/bench.json, the committed file the performance page draws its charts from.
//
//   npm run bench && node docs/scripts/bench-results.mjs [bench/results/latest.json]
import { readFileSync, writeFileSync } from 'node:fs';
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

const LABELS = { bare: 'bare floor', 'mcp-fw': 'mcp-fw', 'sdk-v2': 'official SDK v2' };

/** The chart data of one benchmark report. */
export function benchData(report) {
  const servers = Object.keys(report.results);
  return {
    source: `npm run bench (bench/src/run.ts), commit ${(report.source?.commit ?? 'unknown').slice(0, 7)}${report.source?.dirty ? ' with uncommitted edits' : ''}`,
    date: report.date,
    machine: `${report.machine.nproc ?? '?'} CPUs (${report.machine.cpu ?? 'unknown CPU'}, ${report.machine.platform ?? ''}); other processes took ${Math.round((report.machine.otherCpuShare ?? 0) * 100)} % of the CPU during the run`,
    node: report.machine.node ?? process.version,
    config: report.config,
    metrics: METRICS.map(([id, title, unit, better, value, digits]) => ({
      id,
      title,
      unit,
      better,
      values: servers.map((name) => ({
        subject: LABELS[name] ?? name,
        value: Number(value(report.results[name]).toFixed(digits)),
      })),
    })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = resolve(process.argv[2] ?? join(ROOT, 'bench/results/latest.json'));
  const data = benchData(JSON.parse(readFileSync(input, 'utf8')));
  writeFileSync(join(DOCS, 'data/bench.json'), `${JSON.stringify(data, null, 2)}\n`);
  process.stdout.write(`docs/data/bench.json: ${data.metrics.length} charts from ${input}\n`);
}
