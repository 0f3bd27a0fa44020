// `node dist/main.js` serves stdio (what desktop clients launch); add `--http --port N` to serve
// Streamable HTTP at http://127.0.0.1:N/mcp instead.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { server } from './server.js';

await serveFromArgs(server);
