/**
 * Where an {@link authorizationServer} keeps what must outlive one request: pending sign-ins,
 * authorization codes, registered clients, consents, refresh-token families (with the upstream
 * tokens, encrypted) and fetched client metadata documents. Values are opaque strings. Give
 * every instance of a cluster the same store (and the same `secret` and `signingKey`), so a
 * sign-in started on one instance completes on another.
 *
 * @example
 * ```ts
 * import { MemoryAuthorizationStore, type AuthorizationStore } from '@mcp-fw/auth/server';
 * const store: AuthorizationStore = new MemoryAuthorizationStore();
 * await store.set('k', 'v', 60_000);
 * ```
 */
export interface AuthorizationStore {
  /** The value under `key`, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Reads and deletes `key` in one step: of several concurrent takers exactly one gets the
   * value. Codes and refresh tokens are taken, so each is used once even across instances.
   */
  take(key: string): Promise<string | undefined>;
  /** Deletes `key` (no error when absent). */
  delete(key: string): Promise<void>;
  /**
   * Stores `value` under `key` only when absent; true when stored. Optional: without it a
   * replayed assertion (`jti`) is caught by a read then a write, which two instances racing on
   * the same replay could both pass.
   */
  setIfAbsent?(key: string, value: string, ttlMs: number): Promise<boolean>;
}

/**
 * The default {@link AuthorizationStore}: this process's memory, entries dropped when they
 * expire. Fine for one instance; a cluster needs a shared store.
 *
 * @example
 * ```ts
 * import { authorizationServer, MemoryAuthorizationStore } from '@mcp-fw/auth/server';
 * // authorizationServer({ …, store: new MemoryAuthorizationStore({ maxEntries: 50_000 }) })
 * ```
 */
export class MemoryAuthorizationStore implements AuthorizationStore {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  readonly #maxEntries: number;

  /** `maxEntries` (default 100 000) bounds memory: at the cap the oldest entries go first. */
  constructor(options: { readonly maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#sweep();
    this.#entries.set(key, { value, expiresAt: Date.now() + ttlMs });
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.get(key);
    this.#entries.delete(key);
    return value;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if ((await this.get(key)) !== undefined) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  /** Drops expired entries, then the oldest ones until a tenth of the room is free. */
  #sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries * 0.9) break;
      this.#entries.delete(key);
    }
  }
}
