import { patience } from '../../../../test-support/patience.ts';
/** A raw HTTP exchange with one node or the balancer, for what the official clients do not expose. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export const JSON_AND_SSE = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The JSON-RPC messages of a response, whether JSON or SSE. */
export function messages(res: RawResponse): any[] {
  if (res.headers.get('content-type')?.startsWith('application/json'))
    return [JSON.parse(res.text)];
  return sseEvents(res.text).map((e) => JSON.parse(e.data));
}

/** `id:` and `data:` of each SSE event that carries data. */
export function sseEvents(text: string): { id?: string; data: string }[] {
  return text
    .split('\n\n')
    .map((block) => {
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) id = line.slice(3).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      return { id, data: data.join('\n') };
    })
    .filter((e) => e.data !== '');
}

/** Opens an SSE GET and collects its events until aborted. */
export function openStream(
  url: string,
  headers: Record<string, string>,
): { events: { id?: string; data: string }[]; status: Promise<number>; close(): void } {
  const controller = new AbortController();
  const events: { id?: string; data: string }[] = [];
  const status = fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  }).then(async (res) => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          const cut = buffer.lastIndexOf('\n\n');
          if (cut < 0) continue;
          events.push(...sseEvents(buffer.slice(0, cut + 2)));
          buffer = buffer.slice(cut + 2);
        }
      } catch {
        // aborted
      }
    })();
    return res.status;
  });
  return { events, status, close: () => controller.abort() };
}

export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + patience(ms);
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A 2025-11-25 `initialize` request, as a raw client sends it to open a legacy session. */
export const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
