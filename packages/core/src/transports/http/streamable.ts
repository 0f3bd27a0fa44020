import type { Peer } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { idOf } from './posted-message.js';
import { readMessage } from './read-message.js';
import {
  acceptsJsonAndSse,
  BAD_REQUEST,
  isJsonContentType,
  sendError,
  sendRefusal,
  sendStoreDown,
  sendUnsupportedMediaType,
} from './responses.js';
import { SessionPost } from './session-post.js';
import { SessionStream } from './session-stream.js';
import { StatelessPost } from './stateless-post.js';
import type { StreamableSettings } from './streamable-settings.js';
import { SESSION_HEADER, StreamableSessions } from './streamable-sessions.js';

/**
 * The Streamable HTTP endpoint: POST carries messages, answered as JSON or SSE, of a legacy
 * session (2025-03-26 … 2025-11-25, minted at `initialize`) or, with era hooks, stateless
 * (2026-07-28); GET opens a session's standalone stream (or resumes a lost one with
 * `Last-Event-ID`); DELETE ends a session.
 */
export class StreamableEndpoint {
  readonly #sessions: StreamableSessions;
  readonly #sessionPost: SessionPost;
  readonly #statelessPost: StatelessPost;
  readonly #stream: SessionStream;

  constructor(private readonly settings: StreamableSettings) {
    this.#sessions = new StreamableSessions(settings);
    this.#sessionPost = new SessionPost(settings, this.#sessions);
    this.#statelessPost = new StatelessPost(settings, settings.eras);
    this.#stream = new SessionStream(this.#sessions, settings.eventStore);
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Serves one request of `peer`, whose principal says which sessions it may reach. Not async
   * itself: it hands on the promise of the method's handler rather than wrapping it in another.
   */
  handle(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> | void {
    switch (req.method) {
      case 'POST':
        return this.#post(req, res, peer);
      case 'GET':
        return this.#stream.handle(req, res, peer);
      case 'DELETE':
        return this.#delete(req, res, peer);
      default:
        res.send(405, { allow: 'GET, POST, DELETE' });
    }
  }

  async close(): Promise<void> {
    await this.#statelessPost?.close();
    await this.#sessions.close();
  }

  /** Reaps idle sessions now (tests; normally a timer does it). */
  sweep(now = Date.now()): number {
    return this.#sessions.sweep(now);
  }

  /** What both eras check of a POST before it is routed to its era. */
  async #post(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    const contentType = req.header('content-type');
    if (!isJsonContentType(contentType)) return sendUnsupportedMediaType(res, contentType);
    const { maxBodyBytes } = this.settings;
    const message = readMessage(await req.text(maxBodyBytes), maxBodyBytes, res);
    if (!message) return;
    const { parsed } = message;
    const era = this.settings.eras.classify(parsed, req.header);
    if ('status' in era) return sendRefusal(res, era, idOf(parsed));
    // Both eras: "The client MUST include an Accept header listing both application/json and
    // text/event-stream" (2025-11-25 and 2026-07-28 transports, "Sending Messages"). Either may
    // be answered, and the client cannot know which in advance, so anything less is a 406.
    if (!acceptsJsonAndSse(req.header('accept'))) {
      return sendError(
        res,
        406,
        BAD_REQUEST,
        'Not Acceptable: Accept must include application/json and text/event-stream',
        {},
        idOf(parsed),
      );
    }
    if (era.stateless)
      return this.#statelessPost.handle(
        req,
        res,
        peer,
        message.text,
        parsed as Record<string, unknown>,
        era,
      );
    return this.#sessionPost.handle(req, res, peer, message);
  }

  async #delete(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    if (req.header(SESSION_HEADER) === undefined)
      return sendError(res, 405, BAD_REQUEST, 'Method not allowed.', { allow: 'POST' });
    const session = await this.#sessions.ofRequest(req, res, peer);
    if (!session) return;
    if (this.#sessions.shared) {
      try {
        await this.#sessions.shared.end(session.channel.id);
      } catch (error) {
        return sendStoreDown(res, error);
      }
    }
    await this.#sessions.remove(session.channel.id);
    res.send(200, {});
  }
}
