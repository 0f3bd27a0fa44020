/** One server-sent event (the fields MCP uses). */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** What a stream told the reader besides its events: the last event id and `retry:` delay. */
export interface SseCursor {
  lastEventId?: string;
  retryMs?: number;
}

/** An event (or a line) longer than the reader's limit: the stream is given up. */
export class OversizeEventError extends Error {
  override readonly name = 'OversizeEventError';
}

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, measured only when its length alone cannot rule out `limit`. */
function over(text: string, limit: number): boolean {
  return text.length > limit || (text.length * 3 > limit && encoder.encode(text).length > limit);
}

/**
 * Reads a `text/event-stream` body as events (WHATWG "server-sent events" parsing: `data:`
 * lines joined by newlines, `event:`, `id:`, `retry:`, comments ignored). Updates `cursor` as
 * `id:` and `retry:` fields arrive, so a reader that reconnects knows where it stopped. An event
 * whose data, or a line, exceeds `maxBytes` (UTF-8) throws an {@link OversizeEventError}.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  maxBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  let dataLength = 0;
  let event = '';
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (id !== undefined) cursor.lastEventId = id;
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          data = [];
          dataLength = 0;
          event = '';
          id = undefined;
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'data') {
            data.push(value);
            dataLength += value.length + 1;
            if (dataLength * 3 > maxBytes && over(data.join('\n'), maxBytes))
              throw new OversizeEventError(`an SSE event over ${maxBytes} bytes (maxMessageBytes)`);
          } else if (field === 'event') event = value;
          else if (field === 'id' && !value.includes('\0')) id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) cursor.retryMs = Number(value);
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      // Characters bound bytes from below: cheap to check on every chunk of a long line.
      if (buffer.length > maxBytes)
        throw new OversizeEventError(`an SSE line over ${maxBytes} bytes (maxMessageBytes)`);
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
