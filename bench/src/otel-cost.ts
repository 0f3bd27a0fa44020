// What @mcp-fw/otel costs per tools/call, in process (engine + protocol + middleware through a
// channel stub, no I/O): `none` (no middleware), `off` (telemetry() with no provider
// registered), `sdk` (the OpenTelemetry SDK with a batch span processor and a metric reader;
// its exporters discard, so no network is measured). Usage: `node bench/dist/otel-cost.js
// none|off|sdk [calls]`. CPU time of the process per call, and wall time.
import { performance } from 'node:perf_hooks';
import { metrics } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { createServer, Tool } from '@mcp-fw/core';
import { telemetry } from '@mcp-fw/otel';
import { driveInProcess } from './in-process.js';

const mode = process.argv[2] ?? 'none';
const calls = Number(process.argv[3] ?? 200_000);
const IN_FLIGHT = 64;
if (!['none', 'off', 'sdk'].includes(mode)) throw new Error('mode must be none, off or sdk');

let exported = 0;
if (mode === 'sdk') {
  const spans: SpanExporter = {
    export(batch, done) {
      exported += batch.length;
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => {},
  };
  new NodeTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(spans, { maxQueueSize: 8192, maxExportBatchSize: 512 }),
    ],
  }).register();
  const points: PushMetricExporter = {
    export: (_m, done) => done({ code: ExportResultCode.SUCCESS }),
    forceFlush: async () => {},
    shutdown: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 1000 }),
      ],
    }),
  );
}

// Decorated by hand, as in guard-cost.ts.
class Tools {
  add(args: { a: number; b: number }) {
    return String(args.a + args.b);
  }
}
const input = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};
Tool({ description: 'Adds', input })(
  Tools.prototype,
  'add',
  Object.getOwnPropertyDescriptor(Tools.prototype, 'add')!,
);
const server = createServer({ name: 'cost', version: '1', providers: [Tools] });
if (mode !== 'none') server.use(telemetry());

const driver = driveInProcess(server);
const call = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":${id}}}}`;
await driver.initialize('2025-11-25');
await driver.run(20_000, call, IN_FLIGHT);
const cpu = process.cpuUsage();
const started = performance.now();
await driver.run(calls, call, IN_FLIGHT);
const used = process.cpuUsage(cpu);
const wall = ((performance.now() - started) * 1000) / calls;
const cpuPerCall = (used.user + used.system) / calls;
process.stdout.write(
  `${mode}: ${cpuPerCall.toFixed(2)} µs CPU, ${wall.toFixed(2)} µs wall per call${mode === 'sdk' ? ` (${exported} spans exported so far)` : ''}\n`,
);
process.exit(0);
