import type { Verdict } from './script.js';
import type { HttpResult } from './run-http.js';
import type { HttpServerName } from './http-servers.js';

interface Row {
  label: string;
  value(r: HttpResult): number;
  digits: number;
  /** Quotients of percentages mean nothing: this row gets no ratio columns. */
  noRatio?: boolean;
}

const fmt = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value)
    ? '-'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}×`;

export function httpRows(connections: number, checkpoints: readonly number[]): Row[] {
  const k = (n: number) => n.toLocaleString('en-US');
  return [
    { label: `tools/call add, ${connections} connections, calls/s`, value: (r) => r.calls.callsPerSecond, digits: 0 },
    { label: 'tools/call add, p50 µs', value: (r) => r.calls.p50Us, digits: 0 },
    { label: 'tools/call add, p99 µs', value: (r) => r.calls.p99Us, digits: 0 },
    { label: 'server CPU per call, µs', value: (r) => r.calls.cpuUsPerCall, digits: 1 },
    { label: 'server CPU per call, µs (schedstat)', value: (r) => r.calls.cpuUsPerCallSchedstat, digits: 1 },
    { label: 'harness (client) CPU per call, µs', value: (r) => r.calls.harnessCpuUsPerCall, digits: 1 },
    { label: 'server read + write system calls per call', value: (r) => r.calls.readsPerCall + r.calls.writesPerCall, digits: 2 },
    { label: 'create a session (initialize), median ms', value: (r) => r.sessions.medianMs, digits: 2 },
    { label: 'create a session (initialize), p99 ms', value: (r) => r.sessions.p99Ms, digits: 2 },
    { label: `first ${connections} sessions (cold server), median ms`, value: (r) => r.sessions.firstMedianMs, digits: 2 },
    ...checkpoints.map((n, i) => ({ label: `RSS after ${k(n)} calls, MB`, value: (r: HttpResult) => r.rssMb[i], digits: 1 })),
    { label: `RSS change ${k(checkpoints[0])} → ${k(checkpoints.at(-1)!)}, %`, value: (r) => r.rssGrowthPct, digits: 1, noRatio: true },
    { label: 'peak RSS, MB', value: (r) => r.peakRssMb, digits: 1 },
  ];
}

/** The side-by-side table as Markdown, to paste into the README as printed. */
export function httpTable(results: Partial<Record<HttpServerName, HttpResult>>, rows: Row[]): string {
  const head = ['metric', 'bare', 'mcp-fw', 'sdk-v2', 'sdk-v2 (SSE)', 'mcp-fw / bare', 'sdk / bare', 'sdk / mcp-fw'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) {
    const [bare, ours, sdk, sse] = (['bare', 'mcp-fw', 'sdk-v2', 'sdk-v2-sse'] as const).map((s) =>
      results[s] ? row.value(results[s]) : undefined,
    );
    const cells = [row.label, ...[bare, ours, sdk, sse].map((v) => fmt(v, row.digits))];
    if (row.noRatio) cells.push('', '', '');
    else cells.push(ratio(ours, bare), ratio(sdk, bare), ratio(sdk, ours));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Issue 4's targets for HTTP, judged on mcp-fw within this run. */
export function httpTargets(results: Partial<Record<HttpServerName, HttpResult>>): Verdict[] {
  const ours = results['mcp-fw'];
  if (!ours) return [];
  const us = (r: HttpResult) => `${r.calls.cpuUsPerCall.toFixed(1)} µs`;
  const list: Verdict[] = [];
  const { bare, 'sdk-v2': sdk, 'sdk-v2-sse': sse } = results;
  if (bare) {
    const r = ours.calls.cpuUsPerCall / bare.calls.cpuUsPerCall;
    list.push({ name: 'server CPU per HTTP call ≤ 3× bare node:http', measured: `${r.toFixed(2)}× (${us(ours)} vs ${us(bare)})`, pass: r <= 3 });
  }
  for (const [label, other] of [['SDK v2, JSON', sdk], ['SDK v2, SSE', sse]] as const) {
    if (!other) continue;
    const r = other.calls.cpuUsPerCall / ours.calls.cpuUsPerCall;
    list.push({ name: `server CPU per HTTP call ≥ 4× better than ${label}`, measured: `${r.toFixed(2)}× (${us(other)} vs ${us(ours)})`, pass: r >= 4 });
  }
  const rss = ours.rssMb.map((mb) => mb.toFixed(1)).join(' → ');
  list.push({ name: 'RSS flat (within 10 %) between the first and last checkpoint', measured: `${rss} MB (${ours.rssGrowthPct.toFixed(1)} %)`, pass: Math.abs(ours.rssGrowthPct) <= 10 });
  return list;
}
