/**
 * Reads the JSON messages of an SSE response one at a time: `next()` resolves with the next
 * event's `data` parsed (events without data are skipped) and rejects once the stream ends.
 */
export function sseMessages(response: Response): { next: () => Promise<any> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const next = async (): Promise<any> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event.split('\n').find((l) => l.startsWith('data:'));
        if (data) return JSON.parse(data.slice(5));
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the SSE stream ended');
      buffered += value;
    }
  };
  return { next };
}

/**
 * The JSON-RPC response in a POST's answer: the body itself (JSON), or the one message with an
 * id among an SSE stream's (progress or logs may come before it).
 */
export async function responseOf(response: Response): Promise<any> {
  const text = await response.text();
  const messages = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  return messages.find((m) => 'id' in m);
}
