import { UserError } from '../../registry/index.js';
import type { SessionStateBounds, SessionStates } from '../../stores/index.js';
import { LimitError, storeRefusal } from '../guards/limit-error.js';
import { sessionStateBounds, type SessionStateLimits } from './limits.js';
import { MemorySessionStates } from './memory-states.js';

/**
 * What a session keeps between calls: `ctx.state`. JSON values by key, per session, bounded by
 * `limits.sessionState`, kept in the shared store when the server has one (`@mcp-fw/redis`), so
 * any instance reads what another wrote. A session is a legacy session (stdio connection or
 * `Mcp-Session-Id`), a stdio connection under 2026-07-28, and under 2026-07-28 over HTTP (which
 * has no session) the authenticated caller (`limits.identify` of `ctx.auth`).
 *
 * @example
 * ```ts
 * @Tool({ input: z.object({ item: z.string() }) })
 * async addToCart({ item }: { item: string }, ctx: Context) {
 *   const cart = (await ctx.state.get<string[]>('cart')) ?? [];
 *   cart.push(item);
 *   await ctx.state.set('cart', cart);
 *   return `${cart.length} items in the cart`;
 * }
 * ```
 */
export interface SessionState {
  /** The value stored under `key` (a fresh copy), or undefined. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Stores a JSON value under `key`. Refused with a `LimitError` naming
   * `limits.sessionState.maxKeys` or `.maxBytes` when the session would hold more.
   */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key`; resolves whether it was there. */
  delete(key: string): Promise<boolean>;
}

/**
 * Hands out `ctx.state` for the requests of one server: where values live (memory, or the
 * shared store), the bounds, and which session a request belongs to.
 */
export class SessionStateKeeper {
  readonly #bounds: SessionStateBounds;
  readonly #memory: MemorySessionStates;
  #shared: SessionStates | undefined;

  constructor(limits: SessionStateLimits | undefined) {
    const { maxSessions, ...bounds } = sessionStateBounds(limits);
    this.#bounds = bounds;
    this.#memory = new MemorySessionStates(maxSessions);
  }

  /** Keeps state in `states` (a shared store's), from now on; undefined keeps it in memory. */
  share(states: SessionStates | undefined): void {
    this.#shared = states;
  }

  unshare(): void {
    this.#shared = undefined;
  }

  /**
   * A connection ended: in memory its session's state goes with it. Shared state outlives any
   * one instance's connection (another may still serve the session) and expires when idle.
   */
  ended(sessionKey: string): void {
    if (!this.#shared) void this.#memory.clear(sessionKey);
  }

  /** `ctx.state` for one call of the session `sessionKey` names (asked on first use; it may throw). */
  for(sessionKey: () => string): SessionState {
    let session: string | undefined;
    const sessionOf = () => (session ??= sessionKey());
    const states = () => this.#shared ?? this.#memory;
    const bounds = this.#bounds;
    const stored = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof UserError || !this.#shared) throw error;
        // A shared store that cannot be reached: refused like a limit, with a short retry.
        throw storeRefusal('sessionState', error);
      }
    };
    return {
      get: async <T>(key: string) => {
        checkKey('get', key);
        const json = await stored(() => states().get(sessionOf(), key, bounds));
        return json === undefined ? undefined : (JSON.parse(json) as T);
      },
      set: async (key: string, value: unknown) => {
        checkKey('set', key);
        const json = jsonOf(key, value);
        const refused = await stored(() => states().set(sessionOf(), key, json, bounds));
        if (refused) throw refusal(key, refused, bounds);
      },
      delete: async (key: string) => {
        checkKey('delete', key);
        return stored(() => states().delete(sessionOf(), key, bounds));
      },
    };
  }
}

function checkKey(method: string, key: unknown): void {
  if (typeof key !== 'string' || key === '')
    throw new UserError(
      `ctx.state.${method}: the key must be a non-empty string, got ${JSON.stringify(key) ?? String(key)}`,
    );
}

function jsonOf(key: string, value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new UserError(
      `ctx.state.set('${key}'): the value cannot be written as JSON (${(error as Error).message}). Fix: store plain data (objects, arrays, strings, numbers, booleans, null).`,
    );
  }
  if (json === undefined)
    throw new UserError(
      `ctx.state.set('${key}'): ${typeof value} is not a JSON value. Fix: store plain data, or ctx.state.delete('${key}') to remove it.`,
    );
  return json;
}

function refusal(key: string, bound: 'maxKeys' | 'maxBytes', bounds: SessionStateBounds) {
  const detail =
    bound === 'maxKeys'
      ? `the session already holds limits.sessionState.maxKeys (${bounds.maxKeys}) keys`
      : `the session would hold more than limits.sessionState.maxBytes (${bounds.maxBytes} bytes of keys and JSON)`;
  return new LimitError(
    'sessionState',
    `ctx.state refused to set '${key}': ${detail}. Fix: delete what the session no longer needs (ctx.state.delete), or raise limits.sessionState.${bound}.`,
  );
}

// The server's core is declared below this layer, which therefore adds its `ctx.state` keeper
// from here (as guards, inputs, middleware and tasks do) rather than import it there.
declare module '../server-core.js' {
  interface ServerCore {
    /** Handlers' `ctx.state`: per session, bounded, in memory or the shared store. */
    readonly sessionState: SessionStateKeeper;
  }
}
