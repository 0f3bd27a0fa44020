// The performance page draws its charts from docs/data/bench.json, and a chart it names that the
// file lacks fails `vitepress build` (BenchChart throws), which only the slow docs-site step runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { benchData } from '../scripts/bench-results.mjs';
import { DOCS_ROOT } from './pages.ts';

interface Chart {
  id: string;
  values: { subject: string; value: number }[];
}

const page = readFileSync(join(DOCS_ROOT, 'performance.md'), 'utf8');
const committed = JSON.parse(readFileSync(join(DOCS_ROOT, 'data/bench.json'), 'utf8')) as {
  metrics: Chart[];
};

describe('the performance page', () => {
  it('every chart the page names is in the committed docs/data/bench.json, with values', () => {
    const named = [...page.matchAll(/<BenchChart metric="([^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) {
      const chart = committed.metrics.find((m) => m.id === id);
      expect(chart, `chart ${id}`).toBeDefined();
      expect(chart!.values.length, `chart ${id}`).toBeGreaterThan(0);
    }
  });
});

describe('bench-results.mjs', () => {
  // The smallest reports of each benchmark with the fields the charts read.
  const machine = { nproc: 2, cpu: 'cpu', platform: 'linux x64', node: 'v20', otherCpuShare: 0.01 };
  const header = (date: string) => ({
    date,
    source: { commit: 'abcdef0123', dirty: false },
    machine,
  });
  const stdioResult = (cpu: number) => ({
    pipelined: { cpuUsPerCall: cpu, callsPerSecond: 1000 / cpu },
    sequential: { p50Us: 10 * cpu },
    coldStart: { medianMs: 60 },
    toolsList: { medianMs: 0.3 },
    peakRssMb: 70,
  });
  const httpResult = (cpu: number) => ({
    calls: { cpuUsPerCall: cpu, callsPerSecond: 1e6 / cpu },
    callsAsleep: { cpuUsPerCall: cpu + 5 },
    sessions: { medianMs: 0.2 },
    rssMb: [80, 81],
  });
  const held = (kb: number) => ({
    before: { rss: 0 },
    after: { rss: kb * 1024 * 100 },
    fanout: [{ lastMs: 30 }, { lastMs: 10 }, { lastMs: 20 }],
  });
  const stdio = {
    ...header('2026-11-29T01:00:00Z'),
    config: {},
    results: { bare: stdioResult(2), 'mcp-fw': stdioResult(3), fastmcp: stdioResult(30) },
  };
  const http = {
    ...header('2026-11-29T02:00:00Z'),
    results: {
      bare: httpResult(18),
      'mcp-fw-2026': { ...httpResult(30), sessions: { medianMs: null } },
    },
  };
  const streams = {
    ...header('2026-11-29T03:00:00Z'),
    streams: 100,
    results: { listen: { bare: held(10), 'mcp-fw': held(15) } },
  };
  const spread = (median: number) => ({ median, min: median, max: median });
  const runtimes = {
    ...header('2026-11-29T04:00:00Z'),
    calls: {
      'bun, legacy': { cpuUsPerCall: spread(40) },
      'bun, 2026-07-28': { cpuUsPerCall: spread(35) },
    },
  };

  it('makes the charts of every report it is given, labelled and rounded', () => {
    const data = benchData({ stdio, http, streams, runtimes });
    const chart = (id: string) =>
      (data.metrics as Chart[]).find((m) => m.id === id)?.values.map((v) => [v.subject, v.value]);
    expect(chart('cpu-per-call')).toEqual([
      ['bare floor', 2],
      ['mcp-fw', 3],
      ['fastmcp (punkpeye)', 30],
    ]);
    expect(chart('http-cpu-asleep')).toEqual([
      ['bare node:http floor', 23],
      ['mcp-fw, 2026-07-28', 35],
    ]);
    // A stateless subject opens no session: no bar rather than a broken chart.
    expect(chart('http-session')).toEqual([['bare node:http floor', 0.2]]);
    expect(chart('streams-rss')).toEqual([
      ['bare floor, 2026-07-28 listen stream', 10],
      ['mcp-fw, 2026-07-28 listen stream', 15],
    ]);
    expect(chart('streams-fanout')).toEqual([
      ['bare floor, 2026-07-28 listen stream', 20],
      ['mcp-fw, 2026-07-28 listen stream', 20],
    ]);
    expect(chart('runtimes-legacy')).toEqual([['mcp-fw on Bun', 40]]);
    expect(data.runs.map((r: { command: string }) => r.command)).toEqual([
      'npm run bench',
      'npm run bench:http',
      'npm run bench:streams',
      'npm run bench:runtimes',
    ]);
  });

  it('leaves out the charts of a report it is not given', () => {
    const ids = (benchData({ stdio }).metrics as Chart[]).map((m) => m.id);
    expect(ids).toContain('cpu-per-call');
    expect(ids.some((id) => id.startsWith('http-') || id.startsWith('streams-'))).toBe(false);
  });
});
