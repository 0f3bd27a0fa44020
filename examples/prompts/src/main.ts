// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { server } from './server.js';

serveStdio(server);
