import type { Verdict } from './script.js';
import type { HttpResult } from './run-http.js';
import { HTTP_SERVER_NAMES, type HttpServerName } from './http-servers.js';

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
    : value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0
    ? '-'
    : `${(a / b).toFixed(2)}×`;

export function httpRows(
  connections: number,
  depth: number,
  checkpoints: readonly number[],
): Row[] {
  const k = (n: number) => n.toLocaleString('en-US');
  return [
    {
      label: `tools/call add, ${connections} connections × ${depth} in flight, calls/s`,
      value: (r) => r.calls.callsPerSecond,
      digits: 0,
    },
    { label: 'tools/call add, p50 µs', value: (r) => r.calls.p50Us, digits: 0 },
    { label: 'tools/call add, p99 µs', value: (r) => r.calls.p99Us, digits: 0 },
    { label: 'server CPU per call, µs', value: (r) => r.calls.cpuUsPerCall, digits: 1 },
    {
      label: 'server CPU per call, µs (schedstat)',
      value: (r) => r.calls.cpuUsPerCallSchedstat,
      digits: 1,
    },
    // The same calls with the client asleep between answers: each answer may pay to wake it.
    {
      label: 'server CPU per call, client asleep between answers, µs',
      value: (r) => r.callsAsleep.cpuUsPerCall,
      digits: 1,
    },
    // Near 100 % the server is saturated: the client is not what limits the calls.
    {
      label: 'server busy, % of one CPU',
      value: (r) => (r.calls.cpuUsPerCall * r.calls.callsPerSecond) / 1e4,
      digits: 0,
      noRatio: true,
    },
    {
      label: 'harness (client) CPU per call, client asleep between answers, µs',
      value: (r) => r.callsAsleep.harnessCpuUsPerCall,
      digits: 1,
    },
    {
      label: 'server read + write system calls per call',
      value: (r) => r.calls.readsPerCall + r.calls.writesPerCall,
      digits: 2,
    },
    {
      label: 'create a session (initialize), median ms',
      value: (r) => r.sessions.medianMs,
      digits: 2,
    },
    { label: 'create a session (initialize), p99 ms', value: (r) => r.sessions.p99Ms, digits: 2 },
    {
      label: `first ${connections} sessions (cold server), median ms`,
      value: (r) => r.sessions.firstMedianMs,
      digits: 2,
    },
    ...checkpoints.map((n, i) => ({
      label: `RSS after ${k(n)} calls, MB`,
      value: (r: HttpResult) => r.rssMb[i],
      digits: 1,
    })),
    {
      label: `RSS change ${k(checkpoints[0])} → ${k(checkpoints.at(-1)!)}, %`,
      value: (r) => r.rssGrowthPct,
      digits: 1,
      noRatio: true,
    },
    { label: 'peak RSS, MB', value: (r) => r.peakRssMb, digits: 1 },
  ];
}

const TITLES: Record<HttpServerName, string> = {
  bare: 'bare',
  'mcp-fw': 'mcp-fw',
  'mcp-fw-2026': 'mcp-fw 2026',
  'mcp-fw-jwt': 'mcp-fw + JWT',
  'sdk-v2': 'sdk-v2',
  'sdk-v2-sse': 'sdk-v2 (SSE)',
  fastmcp: 'fastmcp',
  'base-mcp-fw': 'base mcp-fw',
  'base-mcp-fw-2026': 'base mcp-fw 2026',
};

/**
 * The side-by-side table as Markdown, to paste into the README as printed: a column per subject
 * measured, then each against the bare floor, and the SDK against mcp-fw.
 */
export function httpTable(
  results: Partial<Record<HttpServerName, HttpResult>>,
  rows: Row[],
): string {
  const names = HTTP_SERVER_NAMES.filter((name) => results[name]);
  const pairs: [HttpServerName, HttpServerName][] = names
    .filter((n) => n !== 'bare' && results.bare)
    .map((n) => [n, 'bare']);
  for (const sdk of ['sdk-v2', 'sdk-v2-sse', 'fastmcp'] as const)
    if (results[sdk] && results['mcp-fw']) pairs.push([sdk, 'mcp-fw']);
  // What checking a JWT on every request costs, against the same server without it.
  if (results['mcp-fw-jwt'] && results['mcp-fw']) pairs.push(['mcp-fw-jwt', 'mcp-fw']);
  const head = [
    'metric',
    ...names.map((n) => TITLES[n]),
    ...pairs.map(([a, b]) => `${TITLES[a]} / ${TITLES[b]}`),
  ];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const row of rows) {
    const value = (name: HttpServerName) => row.value(results[name]!);
    const cells = [row.label, ...names.map((n) => fmt(value(n), row.digits))];
    for (const [a, b] of pairs) cells.push(row.noRatio ? '' : ratio(value(a), value(b)));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * The targets of issues 4 and 17 for HTTP, judged on mcp-fw within this run, with the client
 * polling; the ratio with the client asleep between answers is shown beside it.
 */
export function httpTargets(results: Partial<Record<HttpServerName, HttpResult>>): Verdict[] {
  const us = (r: HttpResult) => `${r.calls.cpuUsPerCall.toFixed(1)} µs`;
  const list: Verdict[] = [];
  const { bare, 'mcp-fw': ours, 'sdk-v2': sdk, 'sdk-v2-sse': sse } = results;
  for (const [label, subject] of [
    ['legacy session', ours],
    ['2026-07-28', results['mcp-fw-2026']],
    // BENCH_HTTP_BASE: the other checkout, judged alike in the same rounds.
    ['base checkout, legacy session', results['base-mcp-fw']],
    ['base checkout, 2026-07-28', results['base-mcp-fw-2026']],
  ] as const) {
    if (!bare || !subject) continue;
    const r = subject.calls.cpuUsPerCall / bare.calls.cpuUsPerCall;
    const asleep = subject.callsAsleep.cpuUsPerCall / bare.callsAsleep.cpuUsPerCall;
    const perRound = subject.roundRatios?.length
      ? `, per round ${Math.min(...subject.roundRatios).toFixed(2)}–${Math.max(...subject.roundRatios).toFixed(2)}×`
      : '';
    list.push({
      name: `server CPU per HTTP call (${label}) ≤ 2× bare node:http`,
      measured: `${r.toFixed(2)}× (${us(subject)} vs ${us(bare)}${perRound}); client asleep between answers: ${asleep.toFixed(2)}×`,
      pass: r <= 2,
    });
    list.push({
      name: `server CPU per HTTP call (${label}) ≤ 1.5× bare node:http, client polling and asleep (issue 40)`,
      measured: `${r.toFixed(2)}× polling, ${asleep.toFixed(2)}× asleep`,
      pass: r <= 1.5 && asleep <= 1.5,
    });
  }
  if (!ours) return list;
  for (const [label, other] of [
    ['SDK v2, JSON', sdk],
    ['SDK v2, SSE', sse],
  ] as const) {
    if (!other) continue;
    const r = other.calls.cpuUsPerCall / ours.calls.cpuUsPerCall;
    list.push({
      name: `server CPU per HTTP call ≥ 4× better than ${label}`,
      measured: `${r.toFixed(2)}× (${us(other)} vs ${us(ours)})`,
      pass: r >= 4,
    });
  }
  const rss = ours.rssMb.map((mb) => mb.toFixed(1)).join(' → ');
  list.push({
    name: 'RSS flat (within 10 %) between the first and last checkpoint',
    measured: `${rss} MB (${ours.rssGrowthPct.toFixed(1)} %)`,
    pass: Math.abs(ours.rssGrowthPct) <= 10,
  });
  return list;
}
