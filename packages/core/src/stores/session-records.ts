/**
 * What a shared store keeps of one legacy (2025-era) session so any instance can serve it: who
 * it is bound to, and the messages that set its state (`initialize`, `notifications/initialized`,
 * `logging/setLevel`, `resources/subscribe` / `unsubscribe`), which an instance that meets the
 * session for the first time replays into a fresh connection.
 */
export interface SessionRecord {
  /** The authenticated identity the session serves; no one else reaches it. */
  readonly principal?: string;
  /** The key the session is counted under for `maxSessionsPerClient` (identity, else address). */
  readonly client?: string;
  /** State-setting messages, oldest first (bounded by {@link SessionRecords.create}'s `maxReplay`). */
  readonly replay: readonly string[];
}

/** The bounds a shared session store enforces across every instance. */
export interface SharedSessionLimits {
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
}

/**
 * Legacy sessions shared by every instance behind a load balancer. Each method is one round trip
 * to the store; an instance calls {@link touch} once per request of a session and the others only
 * when a session opens, changes state or ends.
 */
export interface SessionRecords {
  /**
   * Opens session `id` unless a cap is reached across the cluster; answers the option that
   * refused it. Sessions idle past `limits.idleTimeoutMs` expire and stop counting.
   */
  create(
    id: string,
    record: SessionRecord,
    limits: SharedSessionLimits,
  ): Promise<'maxSessions' | 'maxSessionsPerClient' | undefined>;
  /** The record, its idle expiry restarted; undefined once it ended or expired. */
  touch(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined>;
  /** Adds a state-setting message; false when the session is gone or holds too many. */
  append(id: string, frame: string): Promise<boolean>;
  /** Ends the session; true when it existed. */
  remove(id: string): Promise<boolean>;
  /**
   * Records that instance `node` now holds the session's standalone (GET) stream, so the one
   * that held it before stops keeping its events (expires with the session's idle timeout).
   */
  hold(id: string, node: string, idleTimeoutMs: number): Promise<void>;
  /** The instance that holds (or last held) the session's standalone stream, if known. */
  holder(id: string): Promise<string | undefined>;
}
