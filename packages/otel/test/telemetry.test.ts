import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { metrics, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, Tool, UserError, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { telemetry } from '@mcp-fw/otel';
import {
  startReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../../../test-support/otlp-receiver.ts';

// The OpenTelemetry SDK exports over OTLP/HTTP (JSON) to a receiver on loopback; the official
// client calls a server served over real HTTP, sending the context of a client span in _meta.

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

class Weather {
  @Tool({ description: 'Forecast for a city', input: z.object({ city: z.string() }) })
  async forecast({ city }: { city: string }) {
    // A span the handler starts: it must nest under the request's span.
    return trace.getTracer('weather-api').startActiveSpan('GET /forecast', async (span) => {
      await new Promise((r) => setTimeout(r, 5));
      span.end();
      return `Sunny in ${city}`;
    });
  }

  @Tool({ description: 'Always fails', input: z.object({}) })
  broken(): string {
    throw new UserError('the weather service is down');
  }

  @Tool({ description: 'Asks where', input: z.object({}) })
  async where(_: object, ctx: Context) {
    const answer = await ctx.elicit('Which city?', z.object({ city: z.string() }));
    return answer.action === 'accept' ? answer.content.city : 'nowhere';
  }
}

let receiver: OtlpReceiver;
let tracerProvider: NodeTracerProvider;
let meterProvider: MeterProvider;
let http: HttpServerHandle;

beforeAll(async () => {
  receiver = await startReceiver();
  tracerProvider = new NodeTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` })),
    ],
  });
  tracerProvider.register(); // global provider, AsyncLocalStorage context, W3C propagator
  meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${receiver.url}/v1/metrics` }),
        exportIntervalMillis: 60_000,
      }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  const server = createServer({ name: 'weather', version: '1.0.0', providers: [Weather] });
  server.use(telemetry());
  http = await serveHttp(server, { port: 0 });
});

afterAll(async () => {
  await http?.close();
  await tracerProvider?.shutdown();
  await meterProvider?.shutdown();
  await receiver?.close();
});

async function connect(elicit?: (params: any) => any, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'otel-test', version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(modern
        ? { versionNegotiation: { mode: 'auto' as const } }
        : { supportedProtocolVersions: ['2025-11-25'] }),
    },
  );
  client.setRequestHandler(
    'elicitation/create',
    async (request: any): Promise<any> => (elicit ? elicit(request.params) : { action: 'decline' }),
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return client;
}

/** Starts a client span and returns it with the `_meta` that carries its context. */
function clientSpan(name: string) {
  const span = trace.getTracer('mcp-client').startSpan(name, { kind: SpanKind.CLIENT });
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), meta);
  return { span, meta };
}

async function flushed(): Promise<void> {
  await tracerProvider.forceFlush();
}

function only(
  spans: ReceivedSpan[],
  test: (s: ReceivedSpan) => boolean,
  what: string,
): ReceivedSpan {
  const found = spans.filter(test);
  expect(found, what).toHaveLength(1);
  return found[0];
}

describe('@mcp-fw/otel with the OpenTelemetry SDK and an OTLP/HTTP exporter', () => {
  it('exports the tree client span → server span → the tool’s span', async () => {
    const client = await connect();
    const { span, meta } = clientSpan('tools/call forecast');
    const result = await client.callTool({
      name: 'forecast',
      arguments: { city: 'Oslo' },
      _meta: meta,
    });
    span.end();
    expect((result.content as any)[0].text).toBe('Sunny in Oslo');
    await flushed();
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.filter((s) => s.traceId === traceId).length >= 3,
      'the three spans of the call',
    );
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    const root = only(spans, (s) => s.kind === CLIENT, 'client span');
    const server = only(spans, (s) => s.kind === SERVER, 'server span');
    const tool = only(spans, (s) => s.name === 'GET /forecast', 'tool span');
    expect(root.spanId).toBe(span.spanContext().spanId);
    expect(server.parentSpanId).toBe(root.spanId);
    expect(tool.parentSpanId).toBe(server.spanId);
    expect(server.name).toBe('tools/call forecast');
    expect(server.scope).toBe('@mcp-fw/otel');
    expect(server.status?.code ?? 0).not.toBe(ERROR);
    expect(server.attributes['error.type']).toBeUndefined();

    // The attributes, checked against the semantic conventions for MCP (gen-ai/mcp.md, server
    // span): name → the value this call must carry.
    const conventions: [string, unknown][] = [
      ['mcp.method.name', 'tools/call'],
      ['gen_ai.tool.name', 'forecast'],
      ['gen_ai.operation.name', 'execute_tool'],
      ['jsonrpc.request.id', expect.stringMatching(/^\d+$/)],
      ['mcp.protocol.version', '2025-11-25'],
      ['mcp.session.id', expect.stringMatching(/^[0-9a-f-]{16,}$/)],
      ['network.transport', 'tcp'],
      ['network.protocol.name', 'http'],
      ['client.address', '127.0.0.1'],
    ];
    for (const [name, value] of conventions) expect(server.attributes[name], name).toEqual(value);
    // Nothing outside the conventions' names (no home-made keys).
    const allowed = new Set([
      ...conventions.map(([n]) => n),
      'error.type',
      'rpc.response.status_code',
    ]);
    expect(Object.keys(server.attributes).filter((k) => !allowed.has(k))).toEqual([]);
    await client.close();
  });

  it('marks a failing tool’s span with error.type tool_error and an ERROR status', async () => {
    const client = await connect();
    const { span, meta } = clientSpan('tools/call broken');
    const result = await client.callTool({ name: 'broken', arguments: {}, _meta: meta });
    span.end();
    expect(result.isError).toBe(true);
    await flushed();
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.kind === SERVER),
      'the failed call’s span',
    );
    const server = only(
      receiver.spans,
      (s) => s.traceId === traceId && s.kind === SERVER,
      'server span',
    );
    expect(server.name).toBe('tools/call broken');
    expect(server.attributes['error.type']).toBe('tool_error');
    expect(server.status).toMatchObject({ code: ERROR, message: 'the weather service is down' });
    await client.close();
  });

  it('takes the parent from the HTTP traceparent header when _meta carries none', async () => {
    const { span, meta } = clientSpan('http request');
    const client = new Client(
      { name: 'otel-test', version: '1.0.0' },
      { supportedProtocolVersions: ['2025-11-25'] },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: meta } }),
    );
    await client.callTool({ name: 'forecast', arguments: { city: 'Narvik' } });
    span.end();
    await flushed();
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.name === 'tools/call forecast'),
      'the call’s span under the header’s trace',
    );
    const server = only(
      receiver.spans,
      (s) => s.traceId === traceId && s.name === 'tools/call forecast',
      'server span',
    );
    expect(server.parentSpanId).toBe(span.spanContext().spanId);
    await client.close();
  });

  it('gives a JSON-RPC error its code as error.type', async () => {
    const client = await connect();
    const { span, meta } = clientSpan('tools/call missing');
    await expect(
      client.callTool({ name: 'missing', arguments: {}, _meta: meta }),
    ).rejects.toThrow();
    span.end();
    await flushed();
    // An unknown tool is refused before any member is reached; the request still has its span.
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.kind === SERVER),
      'the refused call’s span',
    );
    const server = only(
      receiver.spans,
      (s) => s.traceId === traceId && s.kind === SERVER,
      'server span',
    );
    expect(server.name).toBe('tools/call missing');
    expect(server.attributes['error.type']).toBe('-32602');
    expect(server.attributes['rpc.response.status_code']).toBe('-32602');
    expect(server.status).toMatchObject({ code: ERROR, message: 'Unknown tool: missing' });
    await client.close();
  });

  it('carries the request’s context on to the client in server→client requests', async () => {
    const asked: any[] = [];
    const client = await connect((params) => {
      asked.push(params);
      return { action: 'accept', content: { city: 'Bergen' } };
    });
    const { span, meta } = clientSpan('tools/call where');
    const result = await client.callTool({ name: 'where', arguments: {}, _meta: meta });
    span.end();
    expect((result.content as any)[0].text).toBe('Bergen');
    await flushed();
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.kind === SERVER),
      'the server span',
    );
    const server = only(
      receiver.spans,
      (s) => s.traceId === traceId && s.kind === SERVER,
      'server span',
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]._meta.traceparent).toBe(`00-${traceId}-${server.spanId}-01`);
    await client.close();
  });

  it('gives a 2026-07-28 call spanning input rounds one span, parented by _meta', async () => {
    const client = await connect(() => ({ action: 'accept', content: { city: 'Bodø' } }), true);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { span, meta } = clientSpan('tools/call where');
    const result = await client.callTool({ name: 'where', arguments: {}, _meta: meta });
    span.end();
    expect((result.content as any)[0].text).toBe('Bodø');
    await flushed();
    const traceId = span.spanContext().traceId;
    await receiver.waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.kind === SERVER),
      'the server span',
    );
    // Two rounds over stateless HTTP (input_required, then the answer), one logical call.
    const servers = receiver.spans.filter((s) => s.traceId === traceId && s.kind === SERVER);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      name: 'tools/call where',
      parentSpanId: span.spanContext().spanId,
    });
    expect(servers[0].attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(servers[0].attributes['mcp.session.id']).toBeUndefined();
    await client.close();
  });

  it('exports mcp.server.operation.duration (seconds) with the conventions’ attributes', async () => {
    const client = await connect();
    await client.callTool({ name: 'forecast', arguments: { city: 'Tromsø' } });
    await client.callTool({ name: 'broken', arguments: {} });
    await meterProvider.forceFlush();
    await receiver.waitFor(
      () => receiver.metrics.some((m) => m.name === 'mcp.server.operation.duration'),
      'the duration metric',
    );
    const metric = receiver.metrics.findLast((m) => m.name === 'mcp.server.operation.duration')!;
    expect(metric.unit).toBe('s');
    const points = metric.dataPoints.map((p) => p.attributes);
    expect(points).toContainEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'forecast',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(points).toContainEqual(
      expect.objectContaining({ 'gen_ai.tool.name': 'broken', 'error.type': 'tool_error' }),
    );
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'initialize' }));
    // No per-request ids on a metric (cardinality).
    for (const p of points) expect(p['jsonrpc.request.id']).toBeUndefined();
    expect([...receiver.contentTypes]).toEqual(['application/json']);
    await client.close();
  });
});
