import type { Outcome } from './soak-stdio.js';

const JSON_AND_SSE = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const MODERN = '2026-07-28';
const ANSWER = { action: 'accept', content: { name: 'soak' } };
let nextId = 1;

interface Message {
  id?: number | string;
  method?: string;
  result?: any;
  error?: { code: number; message: string };
}

/**
 * Reads the answer to request `id` from a POST response: a JSON body, or an SSE stream that may
 * first carry the server's own requests (elicitation), which `answer` replies to.
 */
async function answerOf(
  response: Response,
  id: number,
  answer: (m: Message) => Promise<void>,
): Promise<Outcome> {
  if (response.status !== 200)
    throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const message = (await response.json()) as Message;
    return message.error ? { error: message.error } : { result: message.result };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended without the answer to ${id}`);
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data === '') continue;
      const message = JSON.parse(data) as Message;
      if (message.method !== undefined) {
        if (message.id !== undefined) await answer(message);
        continue;
      }
      if (message.id === id) {
        await reader.cancel();
        return message.error ? { error: message.error } : { result: message.result };
      }
    }
  }
}

/** A legacy (2025-11-25) Streamable HTTP session. */
export class LegacyHttpSession {
  private constructor(
    private readonly url: string,
    readonly id: string,
  ) {}

  static async open(url: string): Promise<LegacyHttpSession> {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'soak', version: '1' },
      },
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: JSON_AND_SSE,
      body: JSON.stringify(init),
    });
    const id = response.headers.get('mcp-session-id');
    await response.text();
    if (response.status !== 200 || !id) throw new Error(`initialize: HTTP ${response.status}`);
    const session = new LegacyHttpSession(url, id);
    const ack = await session.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await ack.text();
    return session;
  }

  async call(
    method: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Outcome> {
    const id = nextId++;
    try {
      const response = await this.#post({ jsonrpc: '2.0', id, method, params }, signal);
      return await answerOf(response, id, async (m) => {
        const reply = await this.#post({ jsonrpc: '2.0', id: m.id, result: ANSWER });
        await reply.text();
      });
    } catch (error) {
      if (signal?.aborted) return { cancelled: true };
      throw error;
    }
  }

  /** Ends the session (DELETE). */
  async close(): Promise<void> {
    const response = await fetch(this.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': this.id },
    });
    await response.text();
    if (response.status !== 200) throw new Error(`DELETE: HTTP ${response.status}`);
  }

  #post(message: unknown, signal?: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': this.id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(message),
      signal,
    });
  }
}

/** A stateless 2026-07-28 call, answering input rounds (elicitation) until it completes. */
export async function modernCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Outcome> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1' },
  };
  let extra: Record<string, unknown> = {};
  try {
    for (let round = 0; round < 8; round++) {
      const id = nextId++;
      const headers: Record<string, string> = {
        ...JSON_AND_SSE,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
      };
      if (typeof params.name === 'string') headers['mcp-name'] = params.name;
      const body = { jsonrpc: '2.0', id, method, params: { ...params, ...extra, _meta: meta } };
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
      const outcome = await answerOf(response, id, async () => {
        throw new Error('2026-07-28 servers never send requests');
      });
      if (!('result' in outcome) || outcome.result.resultType !== 'input_required') return outcome;
      const inputResponses = Object.fromEntries(
        Object.keys(outcome.result.inputRequests ?? {}).map((key) => [key, ANSWER]),
      );
      extra = { inputResponses, requestState: outcome.result.requestState };
    }
    throw new Error(`${method}: more than 8 input rounds`);
  } catch (error) {
    if (signal?.aborted) return { cancelled: true };
    throw error;
  }
}
