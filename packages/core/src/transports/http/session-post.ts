import type { Peer } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { carriesRequest, idOf, isInitialize } from './posted-message.js';
import type { PostedMessage } from './read-message.js';
import { RequestStream } from './request-stream.js';
import { BAD_REQUEST, sendError, sendRejection, sendStoreDown } from './responses.js';
import type { StreamableSettings } from './streamable-settings.js';
import { SESSION_HEADER, type Session, type StreamableSessions } from './streamable-sessions.js';

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

  async handle(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    { text, parsed }: PostedMessage,
  ): Promise<void> {
    const denied = this.settings.access?.(peer, parsed);
    if (denied) return sendRejection(res, denied, idOf(parsed));
    const sessionId = req.header(SESSION_HEADER);
    const sessions = this.sessions;
    let session: Session | undefined;
    if (sessionId === undefined) {
      if (!isInitialize(parsed)) {
        return sendError(
          res,
          400,
          BAD_REQUEST,
          'Bad Request: Mcp-Session-Id header is required (send initialize first)',
          {},
          idOf(parsed),
        );
      }
      session = sessions.shared
        ? await sessions.openShared(peer, text, idOf(parsed), res)
        : sessions.openLocal(peer, idOf(parsed), res);
      if (!session) return;
    } else {
      // In memory the lookup stays synchronous: no await on the hot path of a legacy call.
      if (!sessions.shared) {
        session = sessions.local(sessionId, peer.principal);
      } else {
        try {
          session = await sessions.find(sessionId, peer);
        } catch (error) {
          return sendStoreDown(res, error, idOf(parsed));
        }
      }
      if (!session) return sessions.notFound(res, idOf(parsed));
      const version = req.header('mcp-protocol-version');
      if (version !== undefined && !this.settings.versions.includes(version)) {
        return sendError(
          res,
          400,
          BAD_REQUEST,
          `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${this.settings.versions.join(', ')})`,
          {},
          idOf(parsed),
        );
      }
    }
    const { id } = session.channel;
    const expectsAnswer = carriesRequest(parsed);
    if (sessions.shared && sessionId !== undefined) {
      try {
        await sessions.shared.relay(id, text, parsed, expectsAnswer);
      } catch (error) {
        return sendStoreDown(res, error, idOf(parsed));
      }
    }
    const node = sessions.shared ? `${sessions.shared.nodeId}.` : '';
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
        expectsAnswer,
        retryMs: this.settings.retryMs,
      },
    );
    session.channel.post(text, parsed, stream, peer, req.onAbort);
  }
}
