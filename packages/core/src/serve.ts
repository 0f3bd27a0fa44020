// Importing the stdio entry first guards stdout before the user's modules run.
import { serveStdio, type StdioHandle } from './stdio.js';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from './node.js';
import type { ServerConnection } from './protocol/index.js';
import type { Servable, ServedConnection } from './servable.js';

/**
 * Serves `server` the way its command line asks: stdio by default, or HTTP with
 * `--http [--port N] [--host H]` (Streamable HTTP at `/mcp`, HTTP+SSE at `/sse`). Meant for a
 * server's entry file, so every server is launched the same way.
 *
 * @example
 * ```ts
 * // src/main.ts — `node dist/main.js` (stdio) or `node dist/main.js --http --port 3000`
 * import { serveFromArgs } from '@mcp-fw/core/serve';
 * import { server } from './server.js';
 * await serveFromArgs(server);
 * ```
 */
export async function serveFromArgs<C extends ServedConnection = ServerConnection>(
  server: Servable<C>,
  argv: readonly string[] = process.argv.slice(2),
  httpOptions: ServeHttpOptions = {},
): Promise<StdioHandle<C> | HttpServerHandle> {
  if (!argv.includes('--http')) return serveStdio(server);
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const port = value('--port');
  const handle = await serveHttp(server, {
    ...httpOptions,
    port: port === undefined ? httpOptions.port : Number(port),
    host: value('--host') ?? httpOptions.host,
  });
  process.stderr.write(`MCP server listening on ${handle.url} (HTTP+SSE at /sse)\n`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return handle;
}
