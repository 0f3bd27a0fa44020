import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, Tool } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { telemetry } from '@mcp-fw/otel';
import { startReceiver, type OtlpReceiver } from '../../../test-support/otlp-receiver.ts';

// Issue #29, "Telemetry flushes": the SDK's schedules here are an hour long, so whatever reaches
// the receiver was sent by the flush on close(), not by the schedule.

class Echo {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }
}

const HOUR = 3_600_000;
let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function providers(receiver: OtlpReceiver) {
  const tracerProvider = new NodeTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }), {
        scheduledDelayMillis: HOUR,
      }),
    ],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${receiver.url}/v1/metrics` }),
        exportIntervalMillis: HOUR,
      }),
    ],
  });
  cleanups.push(
    () => tracerProvider.shutdown(),
    () => meterProvider.shutdown(),
  );
  return { tracerProvider, meterProvider };
}

describe('Telemetry flushes: spans and metrics of a short HTTP session reach the exporter on close()', () => {
  it('closing what serveHttp returned sends the batched spans and the metric', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const server = createServer({ name: 'echo', version: '1.0.0', providers: [Echo] });
    server.use(telemetry(await providers(receiver)));
    const http = await serveHttp(server, { port: 0 });
    const client = new Client({ name: 'flush-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await client.close();
    expect(receiver.spans).toEqual([]); // held by the batch processor, as the SDK does
    await http.close();
    expect(receiver.spans.map((s) => s.name)).toContain('tools/call echo');
    expect(receiver.metrics.map((m) => m.name)).toContain('mcp.server.operation.duration');
  });

  it('server.flush() sends them without closing anything', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const server = createServer({ name: 'echo', version: '1.0.0', providers: [Echo] });
    server.use(telemetry(await providers(receiver)));
    const http = await serveHttp(server, { port: 0 });
    cleanups.push(() => http.close());
    const client = new Client({ name: 'flush-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    cleanups.push(() => client.close());
    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await server.flush();
    expect(receiver.spans.map((s) => s.name)).toContain('tools/call echo');
  });

  it('a flush that hangs is given up after the timeout, and said on the logger', async () => {
    const warnings: string[] = [];
    const server = createServer({
      name: 'echo',
      version: '1.0.0',
      providers: [Echo],
      logger: { error: () => {}, warn: (message) => warnings.push(message) },
    });
    server.use({ flush: () => new Promise<void>(() => {}) });
    const started = Date.now();
    await server.flush(50);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings).toEqual([
      "middleware flush took longer than 50 ms: what it had not sent by then may be lost (is the telemetry exporter's endpoint reachable?)",
    ]);
  });
});
