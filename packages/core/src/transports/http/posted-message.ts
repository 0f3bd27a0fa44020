import { isValidId } from '../../jsonrpc/index.js';

// What the transport reads of a posted message (one or a batch) to route and answer it; the
// engine reads the rest.

/** The id to answer with: a JSON-RPC id is a string or an integer; anything else (1.5, an object) is answered with null. */
export function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return isValidId(id) ? id : null;
}

/** Whether a body holds a request (answered on 200), not only notifications or responses (202). */
export function carriesRequest(message: unknown): boolean {
  const isRequest = (m: unknown) =>
    typeof m === 'object' &&
    m !== null &&
    'id' in m &&
    typeof (m as { method?: unknown }).method === 'string';
  return Array.isArray(message) ? message.some(isRequest) : isRequest(message);
}

export function isInitialize(message: unknown): boolean {
  const isInit = (m: unknown) =>
    typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(message) ? message.some(isInit) : isInit(message);
}
