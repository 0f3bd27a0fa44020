import type { Peer } from './channel.js';
import type { JsonRpcId } from './messages.js';

/**
 * One request being served. The AbortController is created only when a handler reads `signal`:
 * most calls never do, and constructing one per call is measurable on the hot path.
 */
export class InboundRequest {
  #controller?: AbortController;
  #aborted = false;
  #reason: unknown;
  #onAbort?: (reason: unknown) => void;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly params: Record<string, unknown> | undefined,
    /** The transport's token for the frame this request came in (see `FrameRoute`). */
    readonly origin?: unknown,
    /** What the transport knows of the sender (HTTP: authentication, address). */
    readonly peer?: Peer,
  ) {}

  /** What the transport's authentication attached to the request (HTTP), if anything. */
  get auth(): unknown {
    return this.peer?.auth;
  }

  /** The client's network address (HTTP, when the runtime exposes it). */
  get remoteAddress(): string | undefined {
    return this.peer?.remoteAddress;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /**
   * Calls `listener` once, when the request is aborted (at once if it was): what reading
   * {@link signal} offers, without building a signal (a forwarding proxy's hot path).
   */
  onAbort(listener: (reason: unknown) => void): void {
    if (this.#aborted) {
      listener(this.#reason);
      return;
    }
    const before = this.#onAbort;
    this.#onAbort = before
      ? (reason) => {
          before(reason);
          listener(reason);
        }
      : listener;
  }

  /** Aborts the request's signal with `reason` (a cancellation, a closed connection). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#onAbort?.(reason);
  }
}
