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

/**
 * Reads a `text/event-stream` body as events (WHATWG "server-sent events" parsing: `data:`
 * lines joined by newlines, `event:`, `id:`, `retry:`, comments ignored). Updates `cursor` as
 * `id:` and `retry:` fields arrive, so a reader that reconnects knows where it stopped.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
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
          event = '';
          id = undefined;
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
          else if (field === 'id' && !value.includes('\0')) id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) cursor.retryMs = Number(value);
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
