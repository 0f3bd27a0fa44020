import { createServer } from 'node:net';

/**
 * A loopback port free right now. Free only now: another test file may bind it before the
 * component this is for does. A server that can bind port 0 and report its port should do that
 * instead; one that must be told its port up front (its own URL is part of its configuration, or
 * it is redis-server or HAProxy) should start through {@link onFreePort}.
 */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * Whether `error` says a port was taken: Node's `EADDRINUSE` (and serveHttp's PortInUseError,
 * which keeps that code), or a process that exited saying so in the output its error quotes.
 */
export function portTaken(error: unknown): boolean {
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') return true;
  const message = error instanceof Error ? error.message : String(error);
  return /EADDRINUSE|address already in use|is already in use/i.test(message);
}

/** How many ports {@link onFreePort} tries before giving up. */
const ATTEMPTS = 5;

/**
 * Runs `start(port)` on a free port, and again on a fresh one while it fails because the port
 * was taken between the probe and its bind (by another test file, on a busy machine). `start`
 * must leave nothing running when it fails. Any other failure is thrown at once.
 *
 * @example
 * const handle = await onFreePort((port) =>
 *   serveHttp(server, { port, ...oauthResource({ resource: `http://127.0.0.1:${port}/mcp`, … }) }),
 * );
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= ATTEMPTS || !portTaken(error)) throw error;
    }
  }
}
