/** An error answer from the server, as JSON-RPC carries it. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** What a peer does with messages that are not answers to its own requests. */
export interface PeerHandlers {
  notification?(method: string, params: Record<string, unknown> | undefined): void;
  /** Answers a request from the other side; without a handler it gets -32601. */
  request?(method: string, params: Record<string, unknown> | undefined): unknown;
}

interface Pending {
  resolve(value: any): void;
  reject(error: Error): void;
}

/**
 * The client end of a JSON-RPC connection over whole frames: numbers its requests, matches the
 * answers, and hands everything else to its handlers. Used wherever the CLI talks to a server
 * itself (in process, or to a dev child over its pipe).
 */
export class JsonRpcPeer {
  readonly #send: (frame: string) => void;
  readonly #handlers: PeerHandlers;
  readonly #pending = new Map<number, Pending>();
  #next = 1;

  constructor(send: (frame: string) => void, handlers: PeerHandlers = {}) {
    this.#send = send;
    this.#handlers = handlers;
  }

  request(method: string, params?: Record<string, unknown>): Promise<any> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send(JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }));
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.#send(JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }));
  }

  /** One frame from the other side. */
  receive(frame: string): void {
    const parsed = JSON.parse(frame) as unknown;
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.#message(message as Record<string, any>);
  }

  /** Rejects every request still waiting (the other side went away). */
  failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #message(message: Record<string, any>): void {
    if (typeof message.method === 'string') {
      const params = message.params as Record<string, unknown> | undefined;
      if (message.id === undefined) return this.#handlers.notification?.(message.method, params);
      return void this.#answer(message.id, message.method, params);
    }
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.error) pending.reject(new RpcError(message.error.code, message.error.message, message.error.data));
    else pending.resolve(message.result);
  }

  async #answer(id: unknown, method: string, params: Record<string, unknown> | undefined): Promise<void> {
    const handler = this.#handlers.request;
    try {
      if (!handler) throw new RpcError(-32601, `Method not found: ${method}`);
      const result = await handler(method, params);
      this.#send(JSON.stringify({ jsonrpc: '2.0', id, result: result ?? {} }));
    } catch (error) {
      const code = error instanceof RpcError ? error.code : -32603;
      this.#send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: error instanceof Error ? error.message : String(error) } }));
    }
  }
}
