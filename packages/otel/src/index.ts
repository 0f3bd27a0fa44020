// OpenTelemetry for mcp-fw servers: one middleware, following the semantic conventions for MCP.
export { telemetry, type TelemetryOptions } from './telemetry.js';
export { ATTR, OPERATION_DURATION } from './attributes.js';
