#!/usr/bin/env node
// `npm run start:workers -- --port N`: the conformance fixture as a Cloudflare module worker
// (dist/worker.js, bundled as a Workers build is) in real workerd on 127.0.0.1:N (0: a free
// port), with its Durable Object namespace for legacy sessions. Prints
// `listening on http://127.0.0.1:N/mcp` on stderr like `npm start`; SIGTERM/SIGINT stop it.
// (`--http` is accepted and ignored: a Worker serves HTTP only.)
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startWorkerd } from '../../../scripts/workerd.mjs';

const argv = process.argv.slice(2);
const at = argv.indexOf('--port');
const port = at >= 0 ? Number(argv[at + 1]) : 3000;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port ${argv[at + 1]} is not a port; give --port N with N from 0 to 65535`);
  process.exit(2);
}
const entry = fileURLToPath(new URL('../dist/worker.js', import.meta.url));
if (!existsSync(entry)) {
  console.error(`${entry} is missing; build first: npx tsc -b`);
  process.exit(1);
}
const worker = await startWorkerd({
  entry,
  port,
  durableObjects: [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }],
  inherit: true,
});
console.error(`mcp-fw-conformance (workerd) listening on ${worker.origin}/mcp`);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => worker.stop().then(() => process.exit(0)));
worker.child.once('exit', (code) => process.exit(code ?? 1));
