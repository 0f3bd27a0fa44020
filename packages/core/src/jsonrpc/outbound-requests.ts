import { JsonRpcError } from './error.js';
import type { JsonRpcId } from './messages.js';

// Not a JSON-RPC 2.0 code: -32001 is what the MCP SDKs use for a request that timed out.
export const REQUEST_TIMEOUT_CODE = -32001;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Requests this side sent and is waiting on, keyed by id, each with its own timeout. */
export class OutboundRequests {
  readonly #pending = new Map<JsonRpcId, Pending>();
  #nextId: number;

  /** `firstId`: where this side's ids start (see `Channel.firstOutboundId`). */
  constructor(firstId = 0) {
    this.#nextId = firstId;
  }

  /** Opens a request; a `timeoutMs` of `Infinity` waits for the answer however long it takes. */
  open(
    timeoutMs: number,
    onTimeout: (id: JsonRpcId) => void,
  ): { id: JsonRpcId; done: Promise<unknown> } {
    const id = this.#nextId++;
    const done = new Promise<unknown>((resolve, reject) => {
      // setTimeout would fire at once for Infinity (it clamps delays past 2^31-1 ms to 1 ms).
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            this.#pending.delete(id);
            reject(
              new JsonRpcError(REQUEST_TIMEOUT_CODE, `Request timed out after ${timeoutMs} ms`),
            );
            onTimeout(id);
          }, timeoutMs)
        : undefined;
      this.#pending.set(id, { resolve, reject, timer });
    });
    return { id, done };
  }

  /** Settles a pending request from a response; false when nothing waits on that id. */
  settle(
    id: JsonRpcId,
    error: { code: number; message: string; data?: unknown } | undefined,
    result: unknown,
  ): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (error) pending.reject(new JsonRpcError(error.code, error.message, error.data));
    else pending.resolve(result);
    return true;
  }

  abandon(id: JsonRpcId, reason: unknown): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(reason);
    return true;
  }

  rejectAll(reason: unknown): void {
    for (const id of [...this.#pending.keys()]) this.abandon(id, reason);
  }

  get size(): number {
    return this.#pending.size;
  }
}
