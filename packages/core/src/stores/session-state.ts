/** The bounds one session's `ctx.state` is kept within (`limits.sessionState`). */
export interface SessionStateBounds {
  /** Keys per session. */
  readonly maxKeys: number;
  /** Bytes per session: every key and JSON value, UTF-8. */
  readonly maxBytes: number;
  /** A session's state is dropped after this long without a read or write, in ms. */
  readonly idleTimeoutMs: number;
}

/**
 * Where `ctx.state` is kept: JSON text per session and key. In memory by default; a shared store
 * (`@mcp-fw/redis`) keeps it for every instance. Values are stored as the JSON text they were
 * given, so each read hands the handler a fresh copy.
 */
export interface SessionStates {
  /** The JSON text under `key`, or undefined; restarts the session's idle expiry. */
  get(session: string, key: string, bounds: SessionStateBounds): Promise<string | undefined>;
  /**
   * Stores `json` under `key` unless the session would then exceed `bounds`: answers the bound
   * that refused it (nothing is changed then).
   */
  set(
    session: string,
    key: string,
    json: string,
    bounds: SessionStateBounds,
  ): Promise<'maxKeys' | 'maxBytes' | undefined>;
  /** Removes `key`; true when it was there. */
  delete(session: string, key: string, bounds: SessionStateBounds): Promise<boolean>;
  /** Drops everything the session holds (its session ended). */
  clear(session: string): Promise<void>;
}
