// Which requests belong to a legacy session (and so to the Durable Object holding it), read the
// way core's endpoint reads them (protocol.md §1): by the session id a request names, or, for a
// POST without one, by an `initialize` without the 2026-07-28 envelope in the body.

const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** The legacy session a request names (`Mcp-Session-Id`, or the 2024 transport's `?sessionId=`). */
export function namedSession(request: Request, url: URL, messagesPath: string): string | undefined {
  const header = request.headers.get('mcp-session-id');
  if (header !== null) return header;
  if (url.pathname === messagesPath) return url.searchParams.get('sessionId') ?? undefined;
  return undefined;
}

/** A parsed JSON-RPC request body, or undefined for anything else (a batch, bad JSON). */
export function messageOf(body: string): Record<string, unknown> | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  return typeof message === 'object' && message !== null && !Array.isArray(message)
    ? (message as Record<string, unknown>)
    : undefined;
}

/**
 * Whether a JSON-RPC request (a body's parsed object) opens a legacy session: an `initialize`
 * with no 2026-07-28 envelope.
 */
export function opensSession(message: Record<string, unknown>): boolean {
  const { method, params } = message as { method?: unknown; params?: { _meta?: unknown } };
  if (method !== 'initialize') return false;
  const meta = params?._meta;
  return !(typeof meta === 'object' && meta !== null && ENVELOPE_VERSION in meta);
}

// Session ids minted in a Durable Object start with its id: `<object id>.<random UUID>`.
const SEPARATOR = '.';

/** The session id a Durable Object mints: its own id, then an unguessable part. */
export function sessionIdIn(objectId: string): string {
  return `${objectId}${SEPARATOR}${globalThis.crypto.randomUUID()}`;
}

/** The Durable Object id a session id starts with, if it has that shape. */
export function objectIdOf(sessionId: string): string | undefined {
  const at = sessionId.indexOf(SEPARATOR);
  const id = at > 0 ? sessionId.slice(0, at) : '';
  return /^[0-9a-f]{16,128}$/.test(id) ? id : undefined;
}
