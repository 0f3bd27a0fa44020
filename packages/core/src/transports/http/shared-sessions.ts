import type { Peer } from '../../jsonrpc/index.js';
import type {
  SessionChange,
  SessionRecord,
  SessionRecordRefusal,
  RecordedSessionState,
  SharedStore,
} from '../../stores/index.js';
import { StoreUnavailableError } from '../../stores/index.js';
import type { SessionLimits, SessionOwner } from './session-store.js';
import type { TailFrame } from './stream-tail.js';

/** The levels `logging/setLevel` takes (RFC 5424); any other is refused there, and not recorded. */
const LEVELS = new Set([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/** What another instance tells the holders of a session over the bus. */
interface SessionMessage {
  /**
   * `replay`: a state change, as the message that makes it; `in`: answers or notifications;
   * `out`: a request for the client the sender could not deliver (the holder of the standalone
   * stream sends it); `hold`: the sender opened the standalone stream; `end`: the session ended.
   */
  readonly k: 'replay' | 'in' | 'out' | 'hold' | 'end';
  readonly f?: string;
  readonly n: string;
}

/** What an instance does with a session's bus messages while it holds the session. */
export interface SessionFollower {
  /** Feeds a message some other instance received into this one's connection. */
  inbound(text: string): void;
  /** Sends the client a request another instance could not deliver, if the stream is here. */
  outbound(frame: string): void;
  /** Another instance now holds the session's standalone stream. */
  heldElsewhere(): void;
  ended(): void;
}

/**
 * Legacy sessions in a {@link SharedStore}: any instance opens, finds, changes and ends them, and
 * the instances that hold one hear what the client sent to the others (answers to questions
 * their handlers asked, cancels, state changes, the end).
 */
export class SharedSessions {
  constructor(
    readonly store: SharedStore,
    private readonly limits: SessionLimits,
  ) {}

  get nodeId(): string {
    return this.store.nodeId;
  }

  /** Opens session `id` for `owner` with its `initialize`, unless a cluster-wide cap refuses. */
  open(
    id: string,
    owner: SessionOwner,
    client: string | undefined,
    initialize: string,
  ): Promise<SessionRecordRefusal | undefined> {
    return guard(
      this.store.sessions.create(
        id,
        {
          principal: owner.principal,
          client,
          state: { initialize, initialized: false, subscriptions: [] },
        },
        this.limits,
      ),
    );
  }

  /** The session's record if it exists and serves `principal` (no oracle otherwise). */
  async find(id: string, principal: string | undefined): Promise<SessionRecord | undefined> {
    const record = await guard(this.store.sessions.touch(id, this.limits.idleTimeoutMs));
    if (!record) return undefined;
    if (record.principal !== undefined && record.principal !== principal) return undefined;
    return record;
  }

  /**
   * Passes what the client sent here on to the other holders of the session: the state a
   * message sets is recorded first (so a request that follows finds it anywhere), then told to
   * the holders; answers and notifications are published for the instance whose handler waits
   * on them. Answers `'maxSessionRecordBytes'` when the store refused the change (the message
   * is then not served).
   */
  async relay(
    id: string,
    text: string,
    parsed: unknown,
    carriesRequest: boolean,
  ): Promise<'maxSessionRecordBytes' | undefined> {
    const changes = changesOf(parsed);
    if (changes.length > 0) {
      const applied = await guard(this.store.sessions.update(id, changes));
      if (applied === 'maxSessionRecordBytes') return applied;
      if (!applied) return undefined;
      for (const change of changes)
        this.#publish(id, { k: 'replay', f: frameOf(change), n: this.nodeId });
    } else if (!carriesRequest) {
      // Awaited, before the 202: an answer to a question another instance asked (ctx.elicit),
      // or a cancel, must be out before this instance may stop, as a serverless function is
      // frozen as soon as its response is sent.
      await this.#publishNow(id, { k: 'in', f: text, n: this.nodeId });
    }
    return undefined;
  }

  /**
   * How often the sessions with a stream open here are told to the store as alive and busy:
   * often enough that a busy mark (twice this, and a second) never lapses between two.
   */
  get keepAliveMs(): number {
    return Math.max(1_000, Math.min(this.limits.idleTimeoutMs / 3, 10_000));
  }

  /**
   * Restarts the idle expiry of a session whose stream is open here (no request need come), and
   * marks it busy, so that no instance evicts it to make room for a new one.
   */
  keepAlive(id: string): void {
    this.store.sessions
      .touch(id, this.limits.idleTimeoutMs, 2 * this.keepAliveMs + 1_000)
      .catch(() => undefined);
  }

  /** Publishes a frame of a lost request stream, for an instance where it is resumed. */
  publishFrame(streamId: string, frame: TailFrame): void {
    void Promise.resolve()
      .then(() => this.store.bus.publish(`stream:${streamId}`, JSON.stringify(frame)))
      .catch(() => undefined);
  }

  /** Hears the frames published for request stream `streamId`. */
  tail(streamId: string, listener: (frame: TailFrame) => void): Promise<() => void> {
    return guard(
      this.store.bus.subscribe(`stream:${streamId}`, (raw) => {
        try {
          const frame = JSON.parse(raw) as TailFrame;
          if (typeof frame.f === 'string') listener(frame);
        } catch {
          // Not ours.
        }
      }),
    );
  }

  /**
   * Records that this instance now holds the session's standalone stream (before it sends
   * anything on it), and tells the others, so the one that held it before stops keeping events.
   */
  async hold(id: string): Promise<void> {
    await guard(this.store.sessions.hold(id, this.nodeId, this.limits.idleTimeoutMs));
    this.keepAlive(id);
    this.#publish(id, { k: 'hold', n: this.nodeId });
  }

  /** Whether this instance still holds (or held last) the session's standalone stream. */
  async holds(id: string): Promise<boolean> {
    const holder = await this.store.sessions.holder(id);
    return holder === undefined || holder === this.nodeId;
  }

  /** Passes a request for the client to the instance holding the session's standalone stream. */
  forward(id: string, frame: string): void {
    this.#publish(id, { k: 'out', f: frame, n: this.nodeId });
  }

  /** Ends the session everywhere. */
  async end(id: string): Promise<void> {
    await guard(this.store.sessions.remove(id));
    this.#publish(id, { k: 'end', n: this.nodeId });
  }

  /** Hears the session's messages from other instances until the returned function is called. */
  follow(id: string, follower: SessionFollower): Promise<() => void> {
    return guard(
      this.store.bus.subscribe(topicOf(id), (raw) => {
        let message: SessionMessage;
        try {
          message = JSON.parse(raw) as SessionMessage;
        } catch {
          return;
        }
        if (message.n === this.nodeId) return;
        if (message.k === 'end') follower.ended();
        else if (message.k === 'hold') follower.heldElsewhere();
        else if (typeof message.f !== 'string') return;
        else if (message.k === 'out') follower.outbound(message.f);
        else follower.inbound(message.f);
      }),
    );
  }

  #publish(id: string, message: SessionMessage): void {
    void Promise.resolve()
      .then(() => this.#publishNow(id, message))
      .catch(() => undefined);
  }

  async #publishNow(id: string, message: SessionMessage): Promise<void> {
    try {
      await this.store.bus.publish(topicOf(id), JSON.stringify(message));
    } catch {
      // At most once, as pub/sub is: a holder that misses it finds out on its next request.
    }
  }
}

/** The peer a replica's replayed messages come from: the session's own principal. */
export function replayPeer(record: SessionRecord, peer: Peer): Peer {
  return { ...peer, principal: record.principal };
}

function topicOf(id: string): string {
  return `session:${id}`;
}

/** The state changes a message (or each message of a batch) makes; none for most. */
function changesOf(message: unknown): SessionChange[] {
  const changes: SessionChange[] = [];
  for (const one of Array.isArray(message) ? message : [message]) {
    if (typeof one !== 'object' || one === null) continue;
    const { method, params } = one as { method?: unknown; params?: { [k: string]: unknown } };
    if (method === 'notifications/initialized') changes.push({ kind: 'initialized' });
    else if (typeof params !== 'object' || params === null) continue;
    else if (method === 'logging/setLevel') {
      const level = params.level;
      if (typeof level === 'string' && LEVELS.has(level)) changes.push({ kind: 'level', level });
    } else if (method === 'resources/subscribe' || method === 'resources/unsubscribe') {
      const uri = params.uri;
      if (typeof uri === 'string')
        changes.push({ kind: method === 'resources/subscribe' ? 'subscribe' : 'unsubscribe', uri });
    }
  }
  return changes;
}

// Replayed requests are answered into the void; their ids only need to be unique.
let replaySeq = 0;

/** The message that makes `change`, as a connection new to the session is fed it. */
function frameOf(change: SessionChange): string {
  if (change.kind === 'initialized')
    return '{"jsonrpc":"2.0","method":"notifications/initialized"}';
  const id = `mcp-fw:replay:${++replaySeq}`;
  if (change.kind === 'level')
    return JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'logging/setLevel',
      params: { level: change.level },
    });
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: `resources/${change.kind}`,
    params: { uri: change.uri },
  });
}

/** The messages that set a fresh connection up in `state`, in order. */
export function framesOf(state: RecordedSessionState): string[] {
  const frames = [state.initialize];
  if (state.initialized) frames.push(frameOf({ kind: 'initialized' }));
  if (state.level !== undefined) frames.push(frameOf({ kind: 'level', level: state.level }));
  for (const uri of state.subscriptions) frames.push(frameOf({ kind: 'subscribe', uri }));
  return frames;
}

/** Any failure of the store becomes a {@link StoreUnavailableError} (answered 503). */
async function guard<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(
      `the shared session store cannot be reached (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
