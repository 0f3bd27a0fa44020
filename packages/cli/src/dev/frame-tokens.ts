import { performance } from 'node:perf_hooks';
import type { Attachment } from './call-table.js';

/** What a transport token sent with a frame to a child stands for. */
export interface Token {
  /** The client transport's own token for the frame (its HTTP stream); undefined on stdio. */
  readonly origin: unknown;
  readonly at: Attachment;
  /** Frames about the supervisor's own requests: never shown to the client. */
  readonly internal: boolean;
  /** When a message sent on behalf of the frame (progress, a log) was last relayed. */
  lastMessageAt?: number;
  /** The frame's answer, held back for {@link ANSWER_GAP_MS}. */
  held?: Promise<void>;
}

// Official clients run notification handlers on a microtask but responses at once, and the
// response removes the request's progress handler: a progress notification read in the same
// chunk as its response is lost (client 2.4, Protocol._onresponse). Relaying adds a hop that
// makes such chunks likelier, so an answer right behind its own messages waits a moment.
const ANSWER_GAP_MS = 20;

/**
 * The tokens of frames in flight to children. The child hands a token back with everything it
 * sends for that frame and settles it when done, which maps child traffic back to the client's
 * transport token.
 */
export class FrameTokens {
  readonly #tokens = new Map<number, Token>();
  #next = 1;

  create(origin: unknown, at: Attachment, internal = false): number {
    const o = this.#next++;
    this.#tokens.set(o, { origin, at, internal });
    return o;
  }

  get(o: number): Token | undefined {
    return this.#tokens.get(o);
  }

  take(o: number): Token | undefined {
    const token = this.#tokens.get(o);
    this.#tokens.delete(o);
    return token;
  }

  entries(): IterableIterator<[number, Token]> {
    return this.#tokens.entries();
  }

  /** Whether a client frame still has relayed frames out on some child. */
  outstanding(origin: unknown): boolean {
    for (const token of this.#tokens.values())
      if (token.origin === origin && !token.internal) return true;
    return false;
  }

  /** Notes a frame relayed for `token`; for its answer, how long to hold it back (ms). */
  delayFor(token: Token, final: boolean): number {
    if (!final) {
      token.lastMessageAt = performance.now();
      return 0;
    }
    return token.lastMessageAt === undefined
      ? 0
      : ANSWER_GAP_MS - (performance.now() - token.lastMessageAt);
  }
}
