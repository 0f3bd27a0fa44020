import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { patience } from './patience.ts';

/** An OTLP attribute value as the JSON encoding carries it. */
type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};

/** One span as the OTLP/HTTP JSON exporter sends it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  resource: Record<string, unknown>;
  scope: string;
}

export interface ReceivedMetric {
  name: string;
  unit?: string;
  dataPoints: { attributes: Record<string, unknown>; count?: string | number }[];
}

/**
 * A stand-in for an OpenTelemetry collector on loopback: it accepts OTLP/HTTP JSON posts on
 * `/v1/traces` and `/v1/metrics` and decodes them.
 */
export interface OtlpReceiver {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  /** Content types of the posts, to check the exporter spoke JSON. */
  readonly contentTypes: Set<string>;
  waitFor(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const contentTypes = new Set<string>();
  const server = createServer(async (req, res) => {
    const body = await read(req);
    contentTypes.add(String(req.headers['content-type']));
    try {
      const json = JSON.parse(body);
      if (req.url === '/v1/traces') spans.push(...decodeSpans(json));
      else if (req.url === '/v1/metrics') metrics.push(...decodeMetrics(json));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch {
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    contentTypes,
    async waitFor(check, what, timeoutMs = 10_000) {
      const until = Date.now() + patience(timeoutMs);
      while (!check()) {
        if (Date.now() > until) throw new Error(`the receiver never got ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function attributesOf(
  list: { key: string; value: AnyValue }[] | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? [])
    out[key] = value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
  return out;
}

function decodeSpans(json: any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of json.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          name: s.name,
          kind: s.kind,
          status: s.status,
          attributes: attributesOf(s.attributes),
          links: (s.links ?? []).map((l: any) => ({ traceId: l.traceId, spanId: l.spanId })),
          resource,
          scope: ss.scope?.name,
        });
      }
    }
  }
  return out;
}

function decodeMetrics(json: any): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of json.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const points = m.histogram?.dataPoints ?? m.sum?.dataPoints ?? m.gauge?.dataPoints ?? [];
        out.push({
          name: m.name,
          unit: m.unit,
          dataPoints: points.map((p: any) => ({
            attributes: attributesOf(p.attributes),
            count: p.count,
          })),
        });
      }
    }
  }
  return out;
}
