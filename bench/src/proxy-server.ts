// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { fileURLToPath } from 'node:url';
import { createProxy } from '@mcp-fw/proxy';

// The bench's mcp-fw server (src/mcp-fw-server.ts) behind @mcp-fw/proxy, both over stdio: what
// bench/src/run-proxy.ts measures the proxy's own CPU per forwarded call with.
const upstream = fileURLToPath(new URL('./mcp-fw-server.js', import.meta.url));
const proxy = await createProxy(
  { command: process.execPath, args: [upstream] },
  { onWarning: (message) => console.error(message) },
);
serveStdio(proxy);
