// Streamable HTTP at http://127.0.0.1:3000/mcp, through serveFromArgs, so its flags work here:
//   --port N (or PORT=N; 0 picks a free port), --host H (another interface to listen on),
//   --redis <url> (or REDIS_URL): several instances share sessions and notes on one Redis.
// GET /healthz answers 200 {"status":"ok"} while it serves, 503 once it shuts down: the health
// check of a load balancer (docs: Deployment and scale-out).
// The security defaults stay on: the server listens on 127.0.0.1 only, and refuses with 403
// any request whose Host or Origin is not local (DNS rebinding protection). To serve other
// machines, pass --host 0.0.0.0 and, below, the allowedHosts and allowedOrigins to accept.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { server } from './server.js';

await serveFromArgs(server, ['--http', ...process.argv.slice(2)], {
  port: Number(process.env.PORT ?? 3000),
  health: '/healthz',
});
