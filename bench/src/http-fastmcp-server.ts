// punkpeye's fastmcp over Streamable HTTP with its defaults (sessionful, the SDK 1.x transport
// underneath), answering JSON like mcp-fw and `sdk-v2 --json` do.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fastmcpServer } from './fastmcp-tools.js';
import { announce } from './http-server-life.js';

// fastmcp takes a port number and does not report the one the system picked for 0, so one is
// picked here first.
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => resolve(port));
  });
  probe.on('error', reject);
});
await fastmcpServer().start({
  transportType: 'httpStream',
  httpStream: { port, host: '127.0.0.1', endpoint: '/mcp', enableJsonResponse: true },
});
announce(`http://127.0.0.1:${port}/mcp`);
