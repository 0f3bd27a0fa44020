// Telemetry configured only by the standard OTEL_* environment variables, e.g.
//   OTEL_SERVICE_NAME=tides OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
//   OTEL_EXPORTER_OTLP_PROTOCOL=http/json OTEL_METRICS_EXPORTER=otlp node dist/main.js
// or, with no collector, OTEL_TRACES_EXPORTER=console (spans printed on stderr).
// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { server } from './server.js';

new NodeSDK().start();

// When the session ends (the client closes stdin, SIGINT, SIGTERM), serveFromArgs lets the
// calls in flight finish, then telemetry() flushes the spans and metrics still buffered, then
// the process exits: nothing of a short session is lost.
await serveFromArgs(server);
