import type { Verdict } from './script.js';
import { fileURLToPath } from 'node:url';
import type { ColdStart } from './cold-start.js';
import { config } from './config.js';
import type { ServerResult } from './run.js';

export const SERVERS = ['bare', 'mcp-fw', 'sdk-v2', 'fastmcp'] as const;
export type ServerName = (typeof SERVERS)[number];

/** Each server's stdio program, as tsc emits it. */
export const SCRIPTS: Record<ServerName, string> = {
  bare: fileURLToPath(new URL('./bare-server.js', import.meta.url)),
  'mcp-fw': fileURLToPath(new URL('./mcp-fw-server.js', import.meta.url)),
  'sdk-v2': fileURLToPath(new URL('./sdk-v2-server.js', import.meta.url)),
  fastmcp: fileURLToPath(new URL('./fastmcp-server.js', import.meta.url)),
};

/** The frameworks compared with mcp-fw: each gets a column "/ mcp-fw" beside "/ bare". */
const PEERS = ['sdk-v2', 'fastmcp'] as const;

interface Row {
  label: string;
  value(r: ServerResult): number;
  digits: number;
}

const listed = `${(config.listTools + 2).toLocaleString('en-US')} tools`;

export const ROWS: readonly Row[] = [
  {
    label: 'sequential add, calls/s (best run)',
    value: (r) => r.sequential.callsPerSecond,
    digits: 0,
  },
  { label: 'sequential add, p50 µs (best run)', value: (r) => r.sequential.p50Us, digits: 0 },
  { label: 'sequential add, p99 µs (best run)', value: (r) => r.sequential.p99Us, digits: 0 },
  {
    label: 'sequential add, p50 µs (worst run)',
    value: (r) => Math.max(...r.sequential.runP50Us),
    digits: 0,
  },
  {
    label: `pipelined add (${config.inFlight} in flight), calls/s`,
    value: (r) => r.pipelined.callsPerSecond,
    digits: 0,
  },
  { label: 'server CPU per pipelined call, µs', value: (r) => r.pipelined.cpuUsPerCall, digits: 2 },
  {
    label: 'server CPU per pipelined call, µs (schedstat)',
    value: (r) => r.pipelined.cpuUsPerCallSchedstat,
    digits: 2,
  },
  { label: 'cold start to initialize, median ms', value: (r) => r.coldStart.medianMs, digits: 1 },
  { label: 'RSS right after initialize, MB', value: (r) => r.coldStart.rssMb, digits: 1 },
  { label: `tools/list, ${listed}, median ms`, value: (r) => r.toolsList.medianMs, digits: 2 },
  { label: `tools/list, ${listed}, p99 ms`, value: (r) => r.toolsList.p99Ms, digits: 2 },
  { label: 'tools/list response, KB', value: (r) => r.toolsList.responseBytes / 1024, digits: 1 },
  { label: `start with ${listed}, ms`, value: (r) => r.toolsList.startMs, digits: 1 },
  {
    label: 'peak RSS before pipelined phase, MB',
    value: (r) => r.peakRssBeforePipelinedMb,
    digits: 1,
  },
  { label: 'peak RSS after all call phases, MB', value: (r) => r.peakRssMb, digits: 1 },
  { label: `peak RSS with ${listed}, MB`, value: (r) => r.toolsList.peakRssMb, digits: 1 },
];

function fmt(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}×`;
}

/**
 * The side-by-side table as Markdown, so it can be pasted into the README as printed: a column
 * per server measured, each against the bare floor, and each peer framework against mcp-fw.
 */
export function table(results: Partial<Record<ServerName, ServerResult>>): string {
  const names = SERVERS.filter((s) => results[s]);
  const pairs: [ServerName, ServerName][] = names
    .filter((n) => n !== 'bare' && results.bare)
    .map((n) => [n, 'bare']);
  for (const peer of PEERS) if (results[peer] && results['mcp-fw']) pairs.push([peer, 'mcp-fw']);
  const head = ['metric', ...names, ...pairs.map(([a, b]) => `${a} / ${b}`)];
  const rule = head.map((_, i) => (i === 0 ? '---' : '---:')).join('|');
  const lines = [`| ${head.join(' | ')} |`, `|${rule}|`];
  for (const row of ROWS) {
    const value = (s: ServerName) => row.value(results[s]!);
    const cells = [row.label, ...names.map((s) => fmt(value(s), row.digits))];
    for (const [a, b] of pairs) cells.push(ratio(value(a), value(b)));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The acceptance targets, judged on mcp-fw's figures only. */
export function targets(
  results: Partial<Record<ServerName, ServerResult>>,
  bundled?: ColdStart,
): Verdict[] {
  const ours = results['mcp-fw'];
  const bare = results.bare;
  if (!ours) return [];
  const list: Verdict[] = [];
  if (bare) {
    const r = ours.pipelined.cpuUsPerCall / bare.pipelined.cpuUsPerCall;
    const us = (x: ServerResult) => fmt(x.pipelined.cpuUsPerCall, 2);
    list.push({
      name: 'server CPU per pipelined call ≤ 3× bare',
      measured: `${r.toFixed(2)}× (${us(ours)} vs ${us(bare)} µs)`,
      pass: r <= 3,
    });
  }
  list.push({
    name: 'tools/list with 1,000 tools < 2 ms',
    measured: `${ours.toolsList.medianMs.toFixed(2)} ms (median)`,
    pass: ours.toolsList.medianMs < 2,
  });
  // Judged on the production form (mcp-fw build --bundle); tsc's output is reported beside it.
  const cold = bundled ?? ours.coldStart;
  list.push({
    name: 'cold start < 100 ms',
    measured:
      `${cold.medianMs.toFixed(1)} ms (median${bundled ? ', mcp-fw build --bundle' : ''})` +
      (bundled ? `; tsc output unbundled: ${ours.coldStart.medianMs.toFixed(1)} ms` : ''),
    pass: cold.medianMs < 100,
  });
  const rss = Math.max(ours.peakRssMb, ours.toolsList.peakRssMb);
  list.push({
    name: 'peak RSS < 80 MB',
    measured:
      `${ours.peakRssMb.toFixed(1)} MB after all call phases, ` +
      `${ours.toolsList.peakRssMb.toFixed(1)} MB with 1,000 tools`,
    pass: rss < 80,
  });
  return list;
}
