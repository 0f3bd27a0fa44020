import { JsonRpcError } from '../jsonrpc/index.js';
import { base64UrlOf, fromBase64Url } from '../registry/index.js';
import { ErrorCode } from './error-codes.js';

// Cursors are opaque to clients (spec: "Pagination"); this one is the offset of the next page.
export function encodeCursor(offset: number): string {
  return base64UrlOf(`o:${offset}`);
}

export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === 'string') {
    const match = /^o:(\d{1,9})$/.exec(fromBase64Url(cursor) ?? '');
    if (match) return Number(match[1]);
  }
  throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: unknown or malformed cursor');
}

/** One page of `items` starting at the cursor, with the cursor of the next page if any. */
export function page<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { items: readonly T[]; nextCursor?: string } {
  const offset = decodeCursor(cursor);
  const end = offset + pageSize;
  const slice = offset === 0 && end >= items.length ? items : items.slice(offset, end);
  return end < items.length ? { items: slice, nextCursor: encodeCursor(end) } : { items: slice };
}
