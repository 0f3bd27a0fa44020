// The mcp-fw benchmark server over Streamable HTTP and nothing else (http-mcp-fw-server.ts also
// carries an OAuth variant, whose imports would weigh in the bundle): what run-runtimes serves on
// Node, Bun and Deno, and bundles for Node as `mcp-fw build --bundle` does.
import { serveHttp } from '@mcp-fw/core/node';
import { announce } from './http-server-life.js';
import { benchServer } from './mcp-fw-tools.js';

// Idle connections are kept for a minute, as by every subject: the harness's connections to one
// subject wait while the others are measured.
const { url } = await serveHttp(benchServer(), { port: 0, keepAliveTimeoutMs: 60_000 });
announce(url);
