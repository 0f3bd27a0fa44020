import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import type { MiddlewareContext } from '@mcp-fw/core';

// `params._meta` carries W3C trace context unprefixed (`traceparent`, `tracestate`, `baggage`),
// as the MCP conventions (SEP-414) ask.
const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const HEADER_GETTER: TextMapGetter<MiddlewareContext> = {
  keys: () => ['traceparent', 'tracestate', 'baggage'],
  get: (ctx, key) => ctx.header(key),
};

/**
 * The parent of a request's span: the context in `params._meta` (the MCP client's span);
 * failing that, the HTTP request's `traceparent` header; failing that, the ambient context.
 * A header context that is not the parent is returned too, to be linked.
 */
export function parentOf(ctx: MiddlewareContext): { parent: Context; link?: Context } {
  const meta = ctx.meta;
  const fromMeta =
    meta && typeof meta.traceparent === 'string'
      ? propagation.extract(ROOT_CONTEXT, meta, META_GETTER)
      : undefined;
  const fromHeaders =
    ctx.transport === 'http' && ctx.header('traceparent') !== undefined
      ? propagation.extract(ROOT_CONTEXT, ctx, HEADER_GETTER)
      : undefined;
  if (fromMeta && trace.getSpanContext(fromMeta)) return { parent: fromMeta, link: fromHeaders };
  if (fromHeaders && trace.getSpanContext(fromHeaders)) return { parent: fromHeaders };
  return { parent: context.active() };
}

/** The trace context of `active`, as `_meta` entries for requests sent to the client. */
export function metaOf(active: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier;
}
