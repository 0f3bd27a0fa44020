import type { Peer } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { carriesRequest, idOf, isInitialize } from './posted-message.js';
import type { PostedMessage } from './read-message.js';
import { RequestStream } from './request-stream.js';
import { BAD_REQUEST, sendError, sendRejection, sendStoreDown } from './responses.js';
import type { StreamableSettings } from './streamable-settings.js';
import {
  recordTooLarge,
  SESSION_HEADER,
  type Session,
  type StreamableSessions,
} from './streamable-sessions.js';

/**
 * A POST of the legacy family (2025-03-26 … 2025-11-25): an `initialize` without a session id
 * mints a session; anything else names its session in `Mcp-Session-Id`. The message is answered
 * on its own response, as JSON or SSE.
 */
export class SessionPost {
  #streamSeq = 0;

  constructor(
    private readonly settings: StreamableSettings,
    private readonly sessions: StreamableSessions,
  ) {}

  /** Serves one POST; a promise only while a shared store is asked. */
  handle(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    message: PostedMessage,
  ): Promise<void> | undefined {
    const { parsed } = message;
    const denied = this.settings.access?.(peer, parsed);
    if (denied) {
      sendRejection(res, denied, idOf(parsed));
      return;
    }
    const sessionId = req.header(SESSION_HEADER);
    if (sessionId === undefined && !isInitialize(parsed)) {
      sendError(
        res,
        400,
        BAD_REQUEST,
        'Bad Request: Mcp-Session-Id header is required (send initialize first)',
        {},
        idOf(parsed),
      );
      return;
    }
    if (this.sessions.shared) return this.#viaStore(req, res, peer, message);
    // In memory the session is found synchronously: no await on the hot path of a legacy call.
    const session =
      sessionId === undefined
        ? this.sessions.openLocal(peer, idOf(parsed), res)
        : this.#usable(this.sessions.local(sessionId, peer.principal), req, res, parsed);
    if (session) this.#serve(session, req, res, peer, message);
  }

  /**
   * With a shared store the session is opened, or found and checked, there; a message to an
   * existing session is relayed to the other instances holding it before it is served here.
   */
  async #viaStore(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    message: PostedMessage,
  ): Promise<void> {
    const { text, parsed } = message;
    const sessionId = req.header(SESSION_HEADER);
    if (sessionId === undefined) {
      const session = await this.sessions.openShared(peer, text, idOf(parsed), res);
      if (session) this.#serve(session, req, res, peer, message);
      return;
    }
    let found: Session | undefined;
    try {
      found = await this.sessions.find(sessionId, peer);
    } catch (error) {
      return sendStoreDown(res, error, idOf(parsed));
    }
    const session = this.#usable(found, req, res, parsed);
    if (!session) return;
    try {
      const refused = await this.sessions.shared!.relay(
        session.channel.id,
        text,
        parsed,
        carriesRequest(parsed),
      );
      if (refused) return recordTooLarge(res, methodOf(parsed), idOf(parsed));
    } catch (error) {
      return sendStoreDown(res, error, idOf(parsed));
    }
    this.#serve(session, req, res, peer, message);
  }

  /** `session` if it exists and the version header names a revision served; else answers why not. */
  #usable(
    session: Session | undefined,
    req: HttpRequestView,
    res: HttpResponder,
    parsed: unknown,
  ): Session | undefined {
    if (!session) {
      this.sessions.notFound(res, idOf(parsed));
      return undefined;
    }
    const version = req.header('mcp-protocol-version');
    if (version !== undefined && !this.settings.versions.includes(version)) {
      sendError(
        res,
        400,
        BAD_REQUEST,
        `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${this.settings.versions.join(', ')})`,
        {},
        idOf(parsed),
      );
      return undefined;
    }
    return session;
  }

  #serve(
    session: Session,
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    { text, parsed }: PostedMessage,
  ): void {
    const { id } = session.channel;
    const node = this.sessions.shared ? `${this.sessions.shared.nodeId}.` : '';
    const stream = new RequestStream(
      // Stream ids name the instance too: each instance counts its own streams of a shared session.
      `${id}_${node}${this.#streamSeq++}`,
      res,
      { [SESSION_HEADER]: id },
      {
        mode: this.settings.responseMode,
        store: this.settings.eventStore,
        sessionId: id,
        // Priming lets a client resume a stream that broke before its first event (2025-11-25).
        priming: true,
        expectsAnswer: carriesRequest(parsed),
        retryMs: this.settings.retryMs,
      },
    );
    session.channel.post(text, parsed, stream, peer, req.onAbort);
  }
}

/** The method a message (or a batch's first message) names, for a refusal's text. */
function methodOf(parsed: unknown): string {
  const one = Array.isArray(parsed) ? parsed[0] : parsed;
  const method = (one as { method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : 'message';
}
