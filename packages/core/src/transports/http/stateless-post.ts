import type { Peer, WireError } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpResponder } from './exchange.js';
import { carriesRequest, idOf } from './posted-message.js';
import { RequestStream, type StreamSettings } from './request-stream.js';
import { sendRefusal, sendRejection } from './responses.js';
import { SessionChannel } from './session-channel.js';
import type { EraHooks, RoutedEra, StreamableSettings } from './streamable-settings.js';

/**
 * A POST of 2026-07-28: no session; each request is checked before dispatch, then served on one
 * connection shared by every stateless request of the endpoint (opened with the first).
 */
export class StatelessPost {
  #streamSeq = 0;
  #stateless?: { channel: SessionChannel; connection: { close(): Promise<void> } };
  // The stream settings of a POST that carries a request, and of one that does not: the same
  // for every POST, so made once rather than with two closures per request.
  readonly #answered: StreamSettings;
  readonly #unanswered: StreamSettings;

  constructor(
    private readonly settings: StreamableSettings,
    private readonly eras: EraHooks,
  ) {
    const common = {
      headersOf: (error: WireError) => retryAfter(error, eras),
      mode: settings.responseMode,
      priming: false,
      statusOf: (error: WireError) => eras.statusOf(error),
    };
    this.#answered = { ...common, expectsAnswer: true };
    this.#unanswered = { ...common, expectsAnswer: false };
  }

  handle(
    req: HttpRequestView,
    res: HttpResponder,
    peer: Peer,
    text: string,
    message: Record<string, unknown>,
    /** The era `classify` routed the request to; the shared connection opens in it. */
    era: RoutedEra,
  ): void {
    const eras = this.eras;
    const refusal = eras.preflight(message, req.header);
    if (refusal) return sendRefusal(res, refusal, idOf(message));
    // The routing headers decided calls, reads and prompts before the body was read; what they
    // cannot name (a completion's member) is decided here, now that the body agrees with them.
    const denied = this.settings.access?.(peer, message, true);
    if (denied) return sendRejection(res, denied, idOf(message));
    if (!this.#stateless) {
      const channel = new SessionChannel('stateless', undefined);
      this.#stateless = { channel, connection: this.settings.connect(channel, era) };
    }
    const stream = new RequestStream(
      `modern_${this.#streamSeq++}`,
      res,
      NO_HEADERS,
      carriesRequest(message) ? this.#answered : this.#unanswered,
    );
    this.#stateless.channel.post(text, message, stream, peer, req.onAbort, false);
  }

  async close(): Promise<void> {
    await this.#stateless?.channel.close();
    await this.#stateless?.connection.close();
  }
}

/** A stateless answer names no session. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

// An error refused at a limit says when to come back.
function retryAfter(error: WireError, eras: EraHooks): Record<string, string> | undefined {
  const seconds = eras.retryAfterOf?.(error);
  return seconds === undefined ? undefined : { 'retry-after': String(seconds) };
}
