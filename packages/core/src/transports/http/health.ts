import type { HttpRequestView, HttpResponder } from './exchange.js';

/**
 * The health endpoint of `createHttpHandler` / `serveHttp` (`health` option): a string is the
 * readiness path; or name the paths and a check of your own.
 *
 * @example
 * ```ts
 * serveHttp(server, { health: '/healthz' });
 * serveHttp(server, { health: { path: '/readyz', livePath: '/livez', check: () => db.isConnected() } });
 * ```
 */
export interface HealthOptions {
  /**
   * Readiness (default `/healthz`): 200 `{"status":"ok"}` while the endpoint serves and
   * `check` passes; 503 `{"status":"unavailable"}` once it is closing or when `check` fails, so
   * a load balancer stops sending it clients.
   */
  readonly path?: string;
  /** Liveness: 200 `{"status":"ok"}` for as long as the process answers (off unless set). */
  readonly livePath?: string;
  /** What else readiness needs (a database, an upstream API); false or a throw: 503. */
  readonly check?: () => boolean | Promise<boolean>;
}

const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };
const OK = '{"status":"ok"}';
const UNAVAILABLE = '{"status":"unavailable"}';

/**
 * Answers probes on the health paths. Probes come from load balancers and orchestrators that
 * send their own `Host` (often an IP), so these paths are served before the Host and Origin
 * checks and before authentication; the answer tells nothing but up or down.
 */
export class HealthEndpoint {
  readonly #ready: string;
  readonly #live?: string;
  readonly #check?: () => boolean | Promise<boolean>;
  #closing = false;

  constructor(option: string | HealthOptions) {
    const options = typeof option === 'string' ? { path: option } : option;
    this.#ready = checkedPath(options.path ?? '/healthz', 'path');
    this.#live =
      options.livePath === undefined ? undefined : checkedPath(options.livePath, 'livePath');
    this.#check = options.check;
  }

  owns(path: string): boolean {
    return path === this.#ready || path === this.#live;
  }

  /** From now on readiness answers 503: the endpoint is shutting down. */
  closing(): void {
    this.#closing = true;
  }

  async answer(req: HttpRequestView, res: HttpResponder): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return res.send(405, { ...HEADERS, allow: 'GET, HEAD' }, '{"status":"method not allowed"}');
    }
    const ready = req.path === this.#live || (await this.#isReady());
    const body = req.method === 'HEAD' ? undefined : ready ? OK : UNAVAILABLE;
    res.send(ready ? 200 : 503, HEADERS, body);
  }

  async #isReady(): Promise<boolean> {
    if (this.#closing) return false;
    if (!this.#check) return true;
    try {
      return (await this.#check()) === true;
    } catch {
      return false;
    }
  }
}

function checkedPath(path: unknown, field: string): string {
  if (typeof path === 'string' && path.startsWith('/')) return path;
  throw new TypeError(
    `health.${field} must be a path starting with "/", got ${JSON.stringify(path)}. Fix: e.g. health: '/healthz'.`,
  );
}
