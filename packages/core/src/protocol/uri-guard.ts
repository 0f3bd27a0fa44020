import { JsonRpcError } from '../jsonrpc/index.js';
import { ErrorCode } from './error-codes.js';

const MAX_URI_LENGTH = 8192;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// Control characters, spaces and the characters RFC 3986 never allows unencoded.
const FORBIDDEN = /[\u0000-\u0020\u007f"<>\\^`{|}]/;

/** A resource URI is checked before anything looks it up: a string, absolute, bounded, clean. */
export function validateUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length === 0) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      'Invalid params: uri must be a non-empty string',
    );
  }
  if (uri.length > MAX_URI_LENGTH) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: uri is longer than ${MAX_URI_LENGTH} characters`,
      {
        uri: uri.slice(0, 200),
      },
    );
  }
  if (!SCHEME.test(uri) || FORBIDDEN.test(uri)) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      'Invalid params: uri is not a valid absolute URI',
      { uri },
    );
  }
  return uri;
}
