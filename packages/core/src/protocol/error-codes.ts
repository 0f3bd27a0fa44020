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
  /** Legacy revisions: resource not found. */
  ResourceNotFound: -32002,
  /** 2025-11-25: URL elicitation required. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28 */
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
