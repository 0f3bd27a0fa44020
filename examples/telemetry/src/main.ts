// Telemetry configured only by the standard OTEL_* environment variables, e.g.
//   OTEL_SERVICE_NAME=tides OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
//   OTEL_EXPORTER_OTLP_PROTOCOL=http/json OTEL_METRICS_EXPORTER=otlp node dist/main.js
// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { server } from './server.js';

const sdk = new NodeSDK();
sdk.start();

// Spans and metrics still buffered are sent before the process ends (the client closed stdin,
// or a signal).
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= sdk.shutdown().catch(() => undefined));
process.once('beforeExit', () => void stop());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void stop().then(() => process.exit(0)));

await serveFromArgs(server);
