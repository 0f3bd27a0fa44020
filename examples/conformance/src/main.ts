// `--http --port N` serves http://127.0.0.1:N/mcp, the URL the conformance suite is pointed at.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { createConformanceServer } from './server.js';

// A `retry:` hint on priming events lets the suite's SSE polling scenario see one.
await serveFromArgs(createConformanceServer(), process.argv.slice(2), { retryMs: 1000 });
