// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { server } from './server.js';

await serveFromArgs(server);
