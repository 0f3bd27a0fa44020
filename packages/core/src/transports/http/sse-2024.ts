import type { Channel, ChannelSink, Peer } from '../../jsonrpc/index.js';
import type { EventStreamSink, HttpRequestView, HttpResponder } from './exchange.js';
import { readMessage } from './read-message.js';
import {
  BAD_REQUEST,
  isJsonContentType,
  SESSION_NOT_FOUND,
  sendError,
  sendRejection,
  sendUnsupportedMediaType,
} from './responses.js';
import type { AuthRejection } from './auth-rejection.js';
import { SessionStore, type SessionLimits, type StoredSession } from './session-store.js';
import { SSE_HEADERS, sseEvent } from './sse.js';
import type { Connect, LimitRefusal, RoutedEra } from './streamable-settings.js';

/** One HTTP+SSE session: every server message goes out on its single event stream. */
class SseChannel implements Channel {
  readonly remote = true;
  #sink?: ChannelSink;

  constructor(
    readonly id: string,
    private readonly stream: EventStreamSink,
  ) {}

  start(sink: ChannelSink): void {
    this.#sink = sink;
  }

  post(text: string, parsed: unknown, peer: Peer): void {
    this.#sink?.frame(text, undefined, peer, { value: parsed });
  }

  send(frame: string): void {
    if (!this.stream.closed) this.stream.write(sseEvent(frame));
  }

  async close(): Promise<void> {
    this.stream.end();
    this.#sink?.ended();
  }
}

interface SseSession extends StoredSession {
  readonly channel: SseChannel;
}

export interface Sse2024Settings extends SessionLimits {
  readonly connect: Connect;
  /** The era its sessions are served in (`EraHooks.sessions`). */
  readonly sessionEra: RoutedEra;
  readonly refused?: (refusal: LimitRefusal) => void;
  readonly maxBodyBytes: number;
  /** Where clients POST their messages (the `endpoint` event points there). */
  readonly messagesPath: string;
  /** Refuses a message using a member the peer's scopes do not cover. */
  readonly access?: (peer: Peer, message: unknown) => AuthRejection | undefined;
}

/**
 * The 2024-11-05 HTTP+SSE transport: `GET` on the SSE path opens a session whose first event
 * names the POST endpoint; messages POSTed there are accepted with 202 and answered on the
 * stream. The session ends with the stream.
 */
export class Sse2024Endpoint {
  readonly #sessions: SessionStore<SseSession>;

  constructor(private readonly settings: Sse2024Settings) {
    this.#sessions = new SessionStore(settings);
  }

  /** Opens a session for `peer` (bound to its principal, counted against its client's cap). */
  open(_req: HttpRequestView, res: HttpResponder, peer: Peer): void {
    const refusal = this.#sessions.admit(peer);
    if (refusal) {
      this.settings.refused?.({
        limit: refusal.limit,
        method: 'GET /sse',
        message: refusal.message,
        peer,
      });
      return sendError(res, refusal.status, BAD_REQUEST, refusal.message, {
        'retry-after': String(refusal.retryAfterS),
      });
    }
    const stream = res.stream({ ...SSE_HEADERS });
    this.#sessions.add(peer, (id) => {
      const channel = new SseChannel(id, stream);
      stream.onClose(() => void this.#sessions.remove(id));
      const connection = this.settings.connect(channel, this.settings.sessionEra);
      stream.write(
        sseEvent(`${this.settings.messagesPath}?sessionId=${id}`, undefined, 'endpoint'),
      );
      return {
        channel,
        lastSeen: Date.now(),
        get busy() {
          return !stream.closed;
        },
        close: async () => {
          await channel.close();
          await connection.close();
        },
      };
    });
  }

  async message(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    const contentType = req.header('content-type');
    if (!isJsonContentType(contentType)) return sendUnsupportedMediaType(res, contentType);
    const id = req.url.searchParams.get('sessionId');
    const session = id === null ? undefined : this.#sessions.get(id, peer.principal);
    if (!session)
      return sendError(res, 404, SESSION_NOT_FOUND, 'Session not found: open the SSE stream first');
    const { maxBodyBytes } = this.settings;
    const message = readMessage(await req.text(maxBodyBytes), maxBodyBytes, res);
    if (!message) return;
    const { text, parsed } = message;
    const denied = this.settings.access?.(peer, parsed);
    if (denied) return sendRejection(res, denied);
    res.send(202, {});
    session.channel.post(text, parsed, peer);
  }

  close(): Promise<void> {
    return this.#sessions.closeAll();
  }
}
