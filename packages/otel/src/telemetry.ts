import {
  type Context,
  context,
  type Histogram,
  type MeterProvider,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { MiddlewareContext, MiddlewareHooks, Next } from '@mcp-fw/core';
import {
  ATTR,
  commonAttributes,
  errorTypeOf,
  OPERATION_DURATION,
  spanAttributes,
  targetOf,
} from './attributes.js';
import { flushProviders, meterProvider, tracing } from './enabled.js';
import { metaOf, parentOf } from './propagation.js';

const SCOPE = '@mcp-fw/otel';

/** Options of {@link telemetry}. Every field is optional. */
export interface TelemetryOptions {
  /** Where spans go; default: the global provider (what the SDK registered). */
  tracerProvider?: TracerProvider;
  /** Where the duration metric goes; default: the global provider. */
  meterProvider?: MeterProvider;
  /**
   * Record tool arguments as `gen_ai.tool.call.arguments` (JSON). Off by default: arguments
   * may hold personal data (the conventions make it opt-in).
   */
  recordArguments?: boolean;
}

/**
 * OpenTelemetry for every request, as the semantic conventions for MCP describe: a `SERVER`
 * span named `{mcp.method.name} {target}` (`tools/call get_weather`) with `mcp.method.name`,
 * `mcp.session.id`, `mcp.protocol.version`, `jsonrpc.request.id`, `gen_ai.tool.name`,
 * `gen_ai.operation.name`, `network.transport`, `error.type`, …; the histogram
 * `mcp.server.operation.duration` (seconds); the parent taken from W3C trace context in
 * `params._meta` (or, failing that, the HTTP `traceparent` header); spans the handler starts
 * nest under the request's; requests the server sends the client (elicitation, sampling,
 * roots) carry the context on in their `_meta`. A 2026-07-28 call spanning input rounds is one
 * span. While no tracer or meter provider is registered the middleware is switched off and
 * costs a check per request. When the server stops serving (stdin closed, SIGINT or SIGTERM,
 * a handle's `close()`), the providers are flushed, so a short session's spans and metrics
 * reach the exporter before the process ends.
 *
 * @example
 * ```ts
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { telemetry } from '@mcp-fw/otel';
 *
 * new NodeSDK().start(); // configured by OTEL_* environment variables
 * const server = createServer({ name: 'weather', version: '1.0.0', providers: [Weather] });
 * server.use(telemetry());
 * ```
 */
export function telemetry(options: TelemetryOptions = {}): MiddlewareHooks {
  const state = new Instruments(options);
  return {
    enabled: () => state.enabled(),
    request: (ctx, next) => state.observe(ctx, next),
    notification: async (ctx, next) => {
      await state.observe(ctx, next);
    },
    flush: () => flushProviders(options),
  };
}

class Instruments {
  #tracer?: Tracer;
  #meters?: MeterProvider;
  #histogram?: Histogram;
  #tracing = false;

  constructor(private readonly options: TelemetryOptions) {}

  enabled(): boolean {
    this.#tracing = tracing(this.options.tracerProvider);
    const meters = meterProvider(this.options.meterProvider);
    if (meters !== this.#meters) {
      this.#meters = meters;
      this.#histogram = meters?.getMeter(SCOPE).createHistogram(OPERATION_DURATION.name, {
        unit: OPERATION_DURATION.unit,
        description: OPERATION_DURATION.description,
        advice: { explicitBucketBoundaries: [...OPERATION_DURATION.buckets] },
      });
    }
    return this.#tracing || this.#histogram !== undefined;
  }

  get #spans(): Tracer {
    return (this.#tracer ??= (this.options.tracerProvider ?? trace.getTracerProvider()).getTracer(
      SCOPE,
    ));
  }

  async observe(ctx: MiddlewareContext, next: Next<unknown>): Promise<unknown> {
    const target = targetOf(ctx);
    const common = commonAttributes(ctx, target);
    const started = performance.now();
    let active: Context | undefined;
    let span: ReturnType<Tracer['startSpan']> | undefined;
    if (this.#tracing) {
      const { parent, link } = parentOf(ctx);
      const attributes = spanAttributes(ctx, target);
      if (
        this.options.recordArguments &&
        ctx.method === 'tools/call' &&
        ctx.arguments !== undefined
      )
        attributes[ATTR.toolCallArguments] = JSON.stringify(ctx.arguments);
      const linked = link && trace.getSpanContext(link);
      span = this.#spans.startSpan(
        target === undefined ? ctx.method : `${ctx.method} ${target}`,
        { kind: SpanKind.SERVER, attributes, links: linked ? [{ context: linked }] : undefined },
        parent,
      );
      active = trace.setSpan(parent, span);
      if (ctx.requestId !== undefined)
        ctx.outboundMeta = { ...ctx.outboundMeta, ...metaOf(active) };
    }
    let errorType: string | undefined;
    let message: string | undefined;
    try {
      const result = active ? await context.with(active, next) : await next();
      if ((result as { isError?: unknown } | undefined)?.isError === true) {
        errorType = 'tool_error';
        message = textOf(result);
      }
      return result;
    } catch (error) {
      errorType = errorTypeOf(ctx, error);
      message = error instanceof Error ? error.message : String(error);
      if (span && error instanceof Error) span.recordException(error);
      throw error;
    } finally {
      if (errorType !== undefined) {
        common[ATTR.errorType] = errorType;
        if (/^-?\d+$/.test(errorType)) common[ATTR.statusCode] = errorType;
      }
      if (span) {
        if (errorType !== undefined) {
          span.setAttribute(ATTR.errorType, errorType);
          if (common[ATTR.statusCode]) span.setAttribute(ATTR.statusCode, common[ATTR.statusCode]);
          span.setStatus({ code: SpanStatusCode.ERROR, message });
        }
        span.end();
      }
      this.#histogram?.record((performance.now() - started) / 1000, common);
    }
  }
}

function textOf(result: unknown): string | undefined {
  const first = (result as { content?: { type?: string; text?: unknown }[] }).content?.[0];
  return typeof first?.text === 'string' ? first.text : undefined;
}
