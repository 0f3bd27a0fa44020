// Importing the stdio entry first guards stdout before the user's modules run.
import { serveStdio, type StdioHandle } from './stdio.js';
import { PortInUseError, serveHttp, type HttpServerHandle, type ServeHttpOptions } from './node.js';
import type { ServerConnection } from './protocol/index.js';
import type { Servable, ServedConnection } from './servable.js';
import type { SharedStore } from './stores/index.js';

/**
 * Serves `server` the way its command line asks: stdio by default, or HTTP with
 * `--http [--port N] [--host H]` (Streamable HTTP at `/mcp`, HTTP+SSE at `/sse`). With
 * `--redis <url>` (or `REDIS_URL` set) several instances share their state in Redis through
 * `@mcp-fw/redis`, so any of them serves any request behind a load balancer (with
 * `MCP_REQUEST_STATE_SECRET` set, the same on every instance, the key that signs 2026-07-28
 * `requestState` is derived from it rather than kept in Redis). Behind a load balancer, set
 * `MCP_TRUSTED_PROXIES` to its addresses or CIDRs (comma-separated) so each client behind it is
 * counted on its own (see `trustedProxies`). Meant for a
 * server's entry file, so every server is launched the same way. When the port is taken it
 * says so on stderr (the port, how to find who holds it, `--port`) and exits with code 1.
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
  const redisUrl = sharedStoreUrl(argv);
  const opened = !httpOptions.store && redisUrl ? await openRedisStore(redisUrl) : undefined;
  const store = httpOptions.store ?? opened;
  let handle: HttpServerHandle;
  try {
    const proxies = process.env.MCP_TRUSTED_PROXIES;
    handle = await serveHttp(server, {
      ...httpOptions,
      // MCP_TRUSTED_PROXIES: the load balancers' addresses or CIDRs, comma-separated.
      trustedProxies:
        httpOptions.trustedProxies ??
        (proxies ? proxies.split(',').map((entry) => entry.trim()) : undefined),
      store,
      port: port === undefined ? httpOptions.port : Number(port),
      host: value('--host') ?? httpOptions.host,
    });
  } catch (error) {
    // A store opened here must not keep the process alive after a failed start.
    if (opened) await opened.close();
    if (error instanceof PortInUseError) {
      // An entry file's top-level await would end in a stack trace: say why and what to do.
      process.stderr.write(`MCP server not started: ${error.reason}\n${error.fix('--port <n>')}\n`);
      process.exit(1);
    }
    throw error;
  }
  process.stderr.write(
    `MCP server listening on ${handle.url} (HTTP+SSE at /sse)${opened ? ' with shared state in Redis' : store ? ' with a shared store' : ''}\n`,
  );
  const stop = () =>
    void handle
      .close()
      .then(() => (opened ? opened.close() : undefined))
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return handle;
}

/**
 * The Redis URL `serveFromArgs` shares its state on: `--redis <url>` in `argv`, else the
 * `REDIS_URL` variable, else `undefined` (everything stays in this process). A server that keeps
 * state of its own (a cache, a list) reads it here to keep that state beside the framework's.
 *
 * @example
 * ```ts
 * import { sharedStoreUrl } from '@mcp-fw/core/serve';
 * const url = sharedStoreUrl(); // 'redis://redis.internal:6379' for `node dist/main.js --http --redis redis://redis.internal:6379`
 * ```
 */
export function sharedStoreUrl(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const at = argv.indexOf('--redis');
  return (at >= 0 ? argv[at + 1] : undefined) ?? (env.REDIS_URL || undefined);
}

/**
 * The shared store for `--redis <url>` / `REDIS_URL`, from `@mcp-fw/redis`, loaded only when
 * asked for so that core never depends on it.
 */
async function openRedisStore(url: string): Promise<SharedStore> {
  const name = '@mcp-fw/redis';
  let module: {
    redisStore(options: { url: string; requestStateSecret?: string }): Promise<SharedStore>;
  };
  try {
    module = (await import(name)) as typeof module;
  } catch (error) {
    throw new Error(
      `--redis / REDIS_URL needs the package @mcp-fw/redis: install it (npm install @mcp-fw/redis) or drop the option (${error instanceof Error ? error.message : error})`,
    );
  }
  // A secret every instance is given makes the requestState key independent of Redis's data.
  const secret = process.env.MCP_REQUEST_STATE_SECRET;
  return module.redisStore(secret ? { url, requestStateSecret: secret } : { url });
}
