// The bench's stdio server as a V8 startup snapshot entry (`node --build-snapshot`): the server
// is built when the snapshot is, and served when a process starts from it. The stdio entry is
// imported only then: it guards the stdout of the process that serves.
import { startupSnapshot } from 'node:v8';
import { benchServer } from './mcp-fw-tools.js';

const server = benchServer();
startupSnapshot.setDeserializeMainFunction(async () => {
  const { serveStdio } = await import('@mcp-fw/core/stdio');
  serveStdio(server);
});
