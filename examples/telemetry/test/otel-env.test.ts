import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { startReceiver, type OtlpReceiver } from '../../../test-support/otlp-receiver.ts';

// The example is configured only by standard OTEL_* variables: the test points them at an OTLP
// receiver on loopback and drives the server over stdio with the official client.
const MAIN = join(REPO_ROOT, 'examples/telemetry/src/main.ts');

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

describe('examples/telemetry, configured by OTEL_* variables', () => {
  it('exports the request span, the tool’s child span and the duration metric', async () => {
    const client = new Client({ name: 'otel-env-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: nodeEntry(MAIN).args,
        cwd: REPO_ROOT,
        stderr: 'ignore',
        env: {
          ...(process.env as Record<string, string>),
          ...nodeEntry(MAIN).env,
          OTEL_SERVICE_NAME: 'tides-under-test',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_BSP_SCHEDULE_DELAY: '50',
          OTEL_METRIC_EXPORT_INTERVAL: '200',
          OTEL_NODE_RESOURCE_DETECTORS: 'env',
        },
      }),
    );
    const ok = await client.callTool({ name: 'tides', arguments: { port: 'Bergen' } });
    expect((ok.content as any)[0].text).toBe('Bergen: 06:12 high, 12:31 low');
    const failed = await client.callTool({ name: 'tides', arguments: { port: 'Atlantis' } });
    expect(failed.isError).toBe(true);

    await receiver.waitFor(
      () => receiver.spans.filter((s) => s.name === 'tools/call tides').length >= 2,
      'both tools/call spans',
    );
    const calls = receiver.spans.filter((s) => s.name === 'tools/call tides');
    for (const span of calls) {
      expect(span.resource['service.name']).toBe('tides-under-test');
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'tides',
        'network.transport': 'pipe',
      });
    }
    const failedSpan = calls.find((s) => s.attributes['error.type'] === 'tool_error');
    expect(failedSpan).toBeDefined();
    const lookups = receiver.spans.filter((s) => s.name === 'tide-table lookup');
    expect(lookups).toHaveLength(2);
    for (const lookup of lookups) expect(calls.map((c) => c.spanId)).toContain(lookup.parentSpanId);

    await receiver.waitFor(
      () => receiver.metrics.some((m) => m.name === 'mcp.server.operation.duration'),
      'the duration metric',
    );
    const metric = receiver.metrics.findLast((m) => m.name === 'mcp.server.operation.duration')!;
    expect(metric.unit).toBe('s');
    expect(metric.dataPoints.map((p) => p.attributes['mcp.method.name'])).toContain('tools/call');
    await client.close();
  });
});
