import type { JsonRpcId } from '../jsonrpc/index.js';
import type { ClientCapabilities, ClientInfo, RequestRecord } from './request-record.js';

/**
 * What a handler is handed with each call: the request's identity, the client, and the signal
 * that fires when the client cancels or disconnects. Everything a handler sends to the client
 * goes through this object; its shape is the same in every protocol era.
 *
 * @example
 * ```ts
 * @Tool({ input: z.object({ url: z.string() }) })
 * async fetchPage({ url }: { url: string }, ctx: Context) {
 *   const res = await fetch(url, { signal: ctx.signal });
 *   return res.text();
 * }
 * ```
 */
export class Context {
  readonly #record: RequestRecord;

  constructor(record: RequestRecord) {
    this.#record = record;
  }

  /** Fires when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.#record.request.signal;
  }

  /** The JSON-RPC id of the request being served. */
  get requestId(): JsonRpcId {
    return this.#record.request.id;
  }

  /** The protocol revision this request is served under. */
  get protocolVersion(): string {
    return this.#record.protocolVersion;
  }

  /** Who is calling and what it can do. */
  get client(): { readonly info: ClientInfo; readonly capabilities: ClientCapabilities } {
    return { info: this.#record.clientInfo, capabilities: this.#record.clientCapabilities };
  }
}
