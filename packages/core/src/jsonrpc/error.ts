/**
 * An error that goes on the wire as a JSON-RPC error object, exactly as constructed. Throw it
 * from a handler when the client must see a protocol error rather than a tool failure.
 *
 * @example
 * ```ts
 * throw new JsonRpcError(-32602, 'Invalid params: unknown region "mars"', { region: 'mars' });
 * ```
 */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The error object as it goes on the wire. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** A result that is already JSON text: written into the response without re-serialising. */
export class RawJson {
  constructor(readonly json: string) {}
}
