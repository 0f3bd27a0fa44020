import { JsonRpcCode, REQUEST_TIMEOUT_CODE } from '../jsonrpc/index.js';

/**
 * Every error code mcp-fw puts on the wire, in one table (protocol.md §2.1 "Error codes").
 *
 * @example
 * ```ts
 * throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: cursor is malformed');
 * ```
 */
export const ErrorCode = {
  ...JsonRpcCode,
  /** SDK convention for a server→client request that got no answer in time. */
  RequestTimeout: REQUEST_TIMEOUT_CODE,
  /**
   * A limit on state the client asks the server to keep was reached (listen streams,
   * subscriptions); `data.limit` names the option. JSON-RPC's implementation-defined server-error
   * code, as the HTTP transport's session refusals use; on HTTP it comes with 429 or 503 and
   * `Retry-After`.
   */
  LimitReached: -32000,
  /** Legacy revisions: resource not found. */
  ResourceNotFound: -32002,
  /** 2025-11-25: URL elicitation required. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28 */
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
