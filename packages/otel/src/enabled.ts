import {
  createNoopMeter,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  trace,
  type TracerProvider,
} from '@opentelemetry/api';

// What the API hands out while no SDK registered a provider: a fresh proxy's delegate is the
// API's own no-op provider, and the no-op meter is one object.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

/** Whether a tracer provider other than the API's no-op one is in place. */
export function tracing(explicit: TracerProvider | undefined): boolean {
  if (explicit) return true;
  const global = trace.getTracerProvider();
  return global instanceof ProxyTracerProvider
    ? global.getDelegate() !== NOOP_TRACER_PROVIDER
    : true;
}

let lastGlobal: MeterProvider | undefined;
let lastReal: MeterProvider | undefined;

/** The meter provider in use, or undefined while only the API's no-op one is. */
export function meterProvider(explicit: MeterProvider | undefined): MeterProvider | undefined {
  if (explicit) return explicit;
  const global = metrics.getMeterProvider();
  // Asked per request: the answer only changes when another provider is registered.
  if (global !== lastGlobal) {
    lastGlobal = global;
    lastReal = global.getMeter('@mcp-fw/otel') === NOOP_METER ? undefined : global;
  }
  return lastReal;
}

/** What an SDK provider has and the API's no-op one lacks: sending what it buffered. */
interface Flushable {
  forceFlush(): Promise<void>;
}

function flushable(provider: unknown): Flushable | undefined {
  // The global tracer provider is the API's proxy; the SDK's provider is its delegate.
  const real = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  return typeof (real as Partial<Flushable> | undefined)?.forceFlush === 'function'
    ? (real as Flushable)
    : undefined;
}

/**
 * Sends the spans and metrics the providers in use hold (batched spans, pending console
 * exports, metrics not yet collected): what `telemetry()`'s `flush` does when the server stops.
 */
export async function flushProviders(explicit: {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
}): Promise<void> {
  const providers = new Set([
    flushable(explicit.tracerProvider ?? trace.getTracerProvider()),
    flushable(meterProvider(explicit.meterProvider)),
  ]);
  await Promise.all([...providers].map((provider) => provider?.forceFlush()));
}
