// Streamable HTTP at http://127.0.0.1:3000/mcp (PORT=N picks another port, PORT=0 a free one).
// The security defaults stay on: the server listens on 127.0.0.1 only, and refuses with 403
// any request whose Host or Origin is not local (DNS rebinding protection). To serve other
// machines, pass serveHttp (from @mcp-fw/core/node) a host, allowedHosts and allowedOrigins.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { server } from './server.js';

await serveFromArgs(server, ['--http', '--port', process.env.PORT ?? '3000']);
