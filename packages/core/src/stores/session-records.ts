/**
 * What a shared store keeps of one legacy (2025-era) session so any instance can serve it: who
 * it is bound to, and the state its messages set (the `initialize` that opened it, whether
 * `notifications/initialized` came, the log level, the resource subscriptions). An instance that
 * meets the session for the first time sets a fresh connection up from that state. The state
 * is kept, not the messages that set it: a client that repeats `logging/setLevel` changes one
 * field, and the record stays as small as the state it describes.
 */
export interface SessionRecord {
  /** The authenticated identity the session serves; no one else reaches it. */
  readonly principal?: string;
  /** The key the session is counted under for `maxSessionsPerClient` (identity, else address). */
  readonly client?: string;
  readonly state: RecordedSessionState;
}

/** A legacy session's state, as a {@link SessionRecord} keeps it. */
export interface RecordedSessionState {
  /** The `initialize` request that opened the session, as JSON. */
  readonly initialize: string;
  /** Whether the client sent `notifications/initialized`. */
  readonly initialized: boolean;
  /** The level the client last set with `logging/setLevel`, if any. */
  readonly level?: string;
  /** The URIs the client subscribed to with `resources/subscribe` and did not unsubscribe from. */
  readonly subscriptions: readonly string[];
}

/** One change a state-setting message makes to a {@link RecordedSessionState}. */
export type SessionChange =
  | { readonly kind: 'initialized' }
  | { readonly kind: 'level'; readonly level: string }
  | { readonly kind: 'subscribe'; readonly uri: string }
  | { readonly kind: 'unsubscribe'; readonly uri: string };

/**
 * Why a store refused to open or change a session: the cluster-wide caps, or the store's own
 * bound on the bytes one session's record may take (`maxSessionRecordBytes`).
 */
export type SessionRecordRefusal = 'maxSessions' | 'maxSessionsPerClient' | 'maxSessionRecordBytes';

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
   * Opens session `id` unless a cap is reached across the cluster, or its record is larger than
   * the store keeps; answers the option that refused it. At a cap the least recently used
   * session with no stream open (see {@link touch}'s `busyMs`) is ended to make room, as one
   * instance does: among the client's own for `maxSessionsPerClient`, among all for
   * `maxSessions`; only when none is idle is the new one refused. Sessions idle past
   * `limits.idleTimeoutMs` expire and stop counting.
   */
  create(
    id: string,
    record: SessionRecord,
    limits: SharedSessionLimits,
  ): Promise<SessionRecordRefusal | undefined>;
  /**
   * The record, its idle expiry restarted; undefined once it ended or expired. With `busyMs`,
   * the session has a stream open on the caller: it is not evicted for that long.
   */
  touch(id: string, idleTimeoutMs: number, busyMs?: number): Promise<SessionRecord | undefined>;
  /**
   * Applies `changes` to the session's state, all or none: false when the session is gone,
   * `'maxSessionRecordBytes'` when its record would grow past the store's bound.
   */
  update(id: string, changes: readonly SessionChange[]): Promise<boolean | 'maxSessionRecordBytes'>;
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
