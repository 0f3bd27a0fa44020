import { StoreUnavailableError } from '../../stores/index.js';
import type { HeaderMap, HttpResponder } from './exchange.js';
import { headerMap } from './header-map.js';

// Session and transport errors are implementation-defined; these match SDK v2 (protocol.md §6.2).
export const BAD_REQUEST = -32000;
export const SESSION_NOT_FOUND = -32001;

/** A JSON-RPC error as a whole HTTP response (id null: the body could not be tied to a request). */
export function sendError(
  res: HttpResponder,
  status: number,
  code: number,
  message: string,
  headers: HeaderMap = {},
  id: string | number | null = null,
  data?: unknown,
): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.send(
    status,
    headerMap(headers, undefined, 'content-type', 'application/json'),
    JSON.stringify({ jsonrpc: '2.0', id, error }),
  );
}

/** An authentication or authorisation refusal (401 by default) with its challenge and headers. */
export function sendRejection(
  res: HttpResponder,
  rejection: {
    status?: number;
    wwwAuthenticate?: string;
    message?: string;
    headers?: Readonly<HeaderMap>;
  },
  id: string | number | null = null,
): void {
  const { status = 401, wwwAuthenticate, message = 'Unauthorized', headers } = rejection;
  const safe: HeaderMap = {};
  for (const name of Object.keys(headers ?? {})) safe[name] = headerSafe(headers![name]);
  if (wwwAuthenticate) safe['www-authenticate'] = headerSafe(wwwAuthenticate);
  sendError(res, status, BAD_REQUEST, message, safe, id);
}

const UNSAFE = /[^\t\x20-\x7e]/u;
const UTF8 = new TextEncoder();

/**
 * `value` with every character a header cannot carry percent-encoded (as UTF-8). A hook's
 * challenge may name the client's own text (a resource URI); one with CR/LF or a non-ASCII
 * character would make writing the answer throw, turning a 403 into an empty 500.
 */
function headerSafe(value: string): string {
  if (!UNSAFE.test(value)) return value;
  return value.replace(new RegExp(UNSAFE.source, 'gu'), (c) =>
    Array.from(UTF8.encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * Whether a `Content-Type` is the media type `application/json` (RFC 9110 §8.3.1: type and
 * subtype compared case-insensitively, parameters such as `charset` allowed). Related types
 * such as `application/json-patch+json` are not JSON-RPC bodies.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  // What clients send, answered without slicing and lower-casing it.
  if (contentType === 'application/json') return true;
  const semi = contentType.indexOf(';');
  const media = (semi < 0 ? contentType : contentType.slice(0, semi)).trim();
  return media.length === 16 && media.toLowerCase() === 'application/json';
}

/** The 415 every POST endpoint answers a body that is not `application/json` with. */
export function sendUnsupportedMediaType(
  res: HttpResponder,
  contentType: string | undefined,
): void {
  const got = contentType === undefined ? 'none was sent' : `got ${JSON.stringify(contentType)}`;
  sendError(
    res,
    415,
    BAD_REQUEST,
    `Unsupported Media Type: Content-Type must be application/json (${got})`,
  );
}

/** A request refused before dispatch (its JSON-RPC error and HTTP status), as the answer. */
export function sendRefusal(
  res: HttpResponder,
  refusal: { readonly error: { code: number; message: string; data?: unknown }; status: number },
  id: string | number | null,
): void {
  const { error } = refusal;
  sendError(res, refusal.status, error.code, error.message, {}, id, error.data);
}

/** The answer for a request that needs the shared store while it cannot be reached. */
export function sendStoreDown(
  res: HttpResponder,
  error: unknown,
  id: string | number | null = null,
): void {
  // Whatever a store throws (a custom event store too) is answered, never left hanging.
  const unavailable =
    error instanceof StoreUnavailableError
      ? error
      : new StoreUnavailableError(
          `the event store failed (${error instanceof Error ? error.message : String(error)})`,
        );
  sendError(
    res,
    503,
    BAD_REQUEST,
    `Service Unavailable: ${unavailable.message}; retry in ${unavailable.retryAfterS} s`,
    { 'retry-after': String(unavailable.retryAfterS) },
    id,
  );
}

// RFC 9110 §12.4.2: a weight of 0 means "not acceptable".
const REFUSED = /;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)/i;

/** Whether an Accept header admits `type` (or a wildcard covering it) with a weight above 0. */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  const [major] = type.split('/');
  return accept.split(',').some((part) => {
    const semi = part.indexOf(';');
    const media = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase();
    return (
      (media === type || media === '*/*' || media === `${major}/*`) &&
      (semi < 0 || !REFUSED.test(part.slice(semi)))
    );
  });
}

// Clients send the same Accept on every request: remember the verdict on the last one seen.
let lastAccept: string | undefined;
let lastAcceptsBoth = false;

/** Whether an Accept header admits both `application/json` and `text/event-stream`. */
export function acceptsJsonAndSse(accept: string | undefined): boolean {
  if (accept !== lastAccept) {
    lastAcceptsBoth = accepts(accept, 'application/json') && accepts(accept, 'text/event-stream');
    lastAccept = accept;
  }
  return lastAcceptsBoth;
}
