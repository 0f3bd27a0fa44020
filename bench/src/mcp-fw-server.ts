// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { benchServer } from './mcp-fw-tools.js';

serveStdio(benchServer());
