import { JsonRpcError } from '@mcp-fw/core/transport';

/**
 * The transport failed: the server could not be reached, answered with an HTTP status instead of
 * a JSON-RPC message, sent something that is not JSON-RPC, closed a stream before answering, or
 * its process exited. `status` is the HTTP status when there was one.
 *
 * @example
 * ```ts
 * try {
 *   await connect('http://127.0.0.1:1/mcp');
 * } catch (error) {
 *   if (error instanceof TransportError) console.error(error.message); // names the URL and the cause
 * }
 * ```
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  /** The HTTP status, when the server answered with one. */
  readonly status?: number;
  /** The start of the response body, when it explains the status. */
  readonly body?: string;

  constructor(message: string, details: { status?: number; body?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.body = details.body;
  }
}

/**
 * A request got no answer within its timeout (`timeoutMs`, per client or per call). The client
 * told the server to stop working on it.
 *
 * @example
 * ```ts
 * await client.callTool('slow', {}, { timeoutMs: 1000 }).catch((error) => {
 *   if (error instanceof RequestTimeoutError) console.error(error.message);
 * });
 * ```
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly method: string;
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number, detail = '') {
    super(
      `${method} got no answer within ${timeoutMs} ms (timeoutMs); the client cancelled it${detail}`,
    );
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The client and the server share no protocol revision, or the server broke the negotiation
 * (answered `initialize` with a revision the client does not speak, or one other than the pinned
 * one).
 *
 * @example
 * ```ts
 * await connect(url, { protocolVersion: '2026-07-28' }).catch((error) => {
 *   if (error instanceof NegotiationError) console.error(error.message);
 * });
 * ```
 */
export class NegotiationError extends Error {
  override readonly name = 'NegotiationError';
}

/**
 * A tool's `structuredContent` does not match the `outputSchema` it listed (or is missing while
 * the tool declares one). Names the tool and the JSON path of each problem.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool('forecast', { city: 'Oslo' });
 * } catch (error) {
 *   if (error instanceof OutputSchemaError) console.error(error.tool, error.issues);
 * }
 * ```
 */
export class OutputSchemaError extends Error {
  override readonly name = 'OutputSchemaError';
  readonly tool: string;
  /** Each problem: the JSON path (`$.temperature`, `$` for the root) and what is wrong there. */
  readonly issues: readonly { readonly path: string; readonly message: string }[];

  constructor(tool: string, issues: readonly { path: string; message: string }[]) {
    super(
      `Tool "${tool}" returned structuredContent that does not match its outputSchema: ${issues
        .map((i) => `${i.path} ${i.message}`)
        .join('; ')}`,
    );
    this.tool = tool;
    this.issues = issues;
  }
}

export { JsonRpcError };

/** A JSON-RPC error code the client never receives from a server: its own transport failures. */
export const TRANSPORT_FAILURE_CODE = -32000;

/**
 * The response a transport hands the engine in place of the server's, to fail one request with
 * `error` (the engine turns it into a `JsonRpcError` whose `data` is the error itself, which the
 * client unwraps: a server cannot forge it, since it never crosses the wire).
 */
export function failureResponse(id: unknown, error: Error): { value: unknown } {
  return {
    value: {
      jsonrpc: '2.0',
      id,
      error: { code: TRANSPORT_FAILURE_CODE, message: error.message, data: error },
    },
  };
}

/** The error a request failed with, as the client reports it (its transport failure unwrapped). */
export function unwrap(error: unknown): unknown {
  if (error instanceof JsonRpcError && error.data instanceof Error) return error.data;
  return error;
}
