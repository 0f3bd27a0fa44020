import { performance } from 'node:perf_hooks';
import { connect } from './measure.js';
import { peakRssKb } from './proc.js';
import { median, quantile } from './stats.js';

export interface ToolsList {
  tools: number;
  requests: number;
  medianMs: number;
  p99Ms: number;
  responseBytes: number;
  /** Spawn to the initialize response with this many tools registered. */
  startMs: number;
  startRssMb: number;
  peakRssMb: number;
}

/** `requests` consecutive tools/list round trips against a server started with `tools` extras. */
export async function toolsList(
  script: string,
  tools: number,
  requests: number,
  warmup: number,
): Promise<ToolsList> {
  const env = { MCP_BENCH_TOOLS: String(tools) };
  const { client, startMs, startRssMb } = await connect(script, { env });
  try {
    const expected = tools + 2;
    const list = async () => {
      const sent = performance.now();
      const reply = await client.request('tools/list', {});
      const listed = (reply.result.tools as unknown[] | undefined)?.length;
      if (listed !== expected)
        throw new Error(`tools/list listed ${listed} tools, expected ${expected}`);
      return { ms: reply.receivedAt - sent, bytes: reply.bytes };
    };
    for (let i = 0; i < warmup; i++) await list();
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < requests; i++) {
      const r = await list();
      times.push(r.ms);
      bytes = r.bytes;
    }
    return {
      tools: expected,
      requests,
      medianMs: median(times),
      p99Ms: quantile(times, 0.99),
      responseBytes: bytes,
      startMs,
      startRssMb,
      peakRssMb: peakRssKb(client.pid) / 1024,
    };
  } finally {
    await client.close();
  }
}
