import { OversizeEventError } from './sse.js';
import type { Peeked } from './transport.js';

// What the HTTP transports read from a response body: the message size limit, and the names of
// messages in their errors.

/** The longest message accepted from a server by default: 4 MiB, as core's stdio. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A response body as text, refused (OversizeEventError) past `maxBytes`, read or announced. */
export async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new OversizeEventError(`a body of ${declared} bytes, over ${maxBytes} (maxMessageBytes)`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new OversizeEventError(`a body over ${maxBytes} bytes (maxMessageBytes)`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Whether a parsed body is a JSON-RPC message (not a batch). */
export function isJsonRpc(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'jsonrpc' in value;
}

/** `tools/call "add"`, the method alone, or the response to a request, for error messages. */
export function describe(message: Peeked): string {
  if (message.method === undefined) return `the response to request ${String(message.id)}`;
  const name = message.params?.name ?? message.params?.uri;
  return typeof name === 'string' ? `${message.method} "${name}"` : message.method;
}
