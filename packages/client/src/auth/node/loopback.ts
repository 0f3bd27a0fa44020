import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationError } from '../errors.js';

/** Options of {@link loopbackRedirect}. */
export interface LoopbackOptions {
  /** The port to listen on (default 0: any free one; fix it to keep a dynamic registration across runs). */
  readonly port?: number;
  /** The callback path (default `/callback`). */
  readonly path?: string;
  /**
   * Shows the authorization URL to the user (default: printed on stderr, and the system browser
   * opened with `open`, `xdg-open` or `start`).
   */
  readonly open?: (url: URL) => void | Promise<void>;
  /** How long to wait for the browser to come back (default 300 000 ms). */
  readonly timeoutMs?: number;
}

/** What {@link loopbackRedirect} returns: spread it into `oauth()`. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /** Opens the browser at the authorization URL and resolves with the redirect that came back. */
  readonly onAuthorizationUrl: (url: URL) => Promise<URL>;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Sign-in for a person at a terminal (RFC 8252 §7.3): listens on a loopback port, opens the
 * browser at the authorization URL, and takes the redirect back. Node only. The listener keeps
 * the process alive only while a sign-in is waiting for the browser.
 *
 * @example
 * ```ts
 * import { connect, oauth } from '@mcp-fw/client';
 * import { loopbackRedirect } from '@mcp-fw/client/node';
 *
 * const redirect = await loopbackRedirect({ port: 8976 });
 * const client = await connect('https://example.com/mcp', { auth: oauth({ clientName: 'My CLI', ...redirect }) });
 * ```
 */
export async function loopbackRedirect(options: LoopbackOptions = {}): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  let waiting: ((url: URL) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirectUrl);
    if (url.pathname !== path || !waiting) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const failed = url.searchParams.has('error');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        `<!doctype html><title>Sign-in</title><p>${
          failed ? 'Sign-in was not completed.' : 'Signed in.'
        } You can close this window and return to the terminal.</p>`,
      );
    waiting(url);
    waiting = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const timeoutMs = options.timeoutMs ?? 300_000;
  return {
    redirectUrl,
    onAuthorizationUrl: async (url) => {
      const back = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(
            new AuthorizationError(
              'authorization-denied',
              `Nobody completed the sign-in at ${url.origin} within ${timeoutMs} ms (timeoutMs); the browser never came back to ${redirectUrl}.`,
            ),
          );
        }, timeoutMs);
        // While a person is signing in, the listener keeps the process alive; not otherwise.
        server.ref();
        waiting = (redirect) => {
          clearTimeout(timer);
          server.unref();
          resolve(redirect);
        };
      });
      back.catch(() => server.unref());
      await (options.open ?? openBrowser)(url);
      return back;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function openBrowser(url: URL): void {
  process.stderr.write(`Sign in at: ${url.href}\n`);
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url.href]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.href]]
        : ['xdg-open', [url.href]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {}
}
