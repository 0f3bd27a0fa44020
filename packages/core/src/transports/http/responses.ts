import type { HeaderMap, HttpResponder } from './exchange.js';

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
  res.send(status, { ...headers, 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id, error }));
}

/** Whether an Accept header admits `type` (or a wildcard covering it). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  const [major] = type.split('/');
  return accept.split(',').some((part) => {
    const media = part.split(';')[0].trim().toLowerCase();
    return media === type || media === '*/*' || media === `${major}/*`;
  });
}
