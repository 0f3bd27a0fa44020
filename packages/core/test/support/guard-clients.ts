import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpFwServer } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '@mcp-fw/core/node';

/** `legacy`: the client pinned to 2025-11-25 (sessions); `auto`: it speaks 2026-07-28. */
export type ClientMode = 'legacy' | 'auto';
export const CLIENT_MODES: [ClientMode, string][] = [
  ['legacy', '2025-11-25'],
  ['auto', '2026-07-28'],
];

/** An HTTP answer as the official client's transport saw it. */
export interface SeenResponse {
  readonly status: number;
  readonly retryAfter: string | null;
}

export interface HttpClientOptions {
  readonly headers?: Record<string, string>;
  readonly onElicit?: (params: any) => unknown | Promise<unknown>;
}

/** A listening node:http server for `server`, closed by `close`. */
export async function listen(
  server: McpFwServer,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  return serveHttp(server, { ...options, port: 0 });
}

/**
 * The official client 2.x over Streamable HTTP against `url`, in `mode`; every HTTP response
 * it receives is recorded (status and `Retry-After`).
 */
export async function officialClient(
  url: string,
  mode: ClientMode,
  options: HttpClientOptions = {},
) {
  const client = new Client(
    { name: 'guardrails-test', version: '1.0.0' },
    {
      capabilities: options.onElicit ? { elicitation: {} } : {},
      ...(mode === 'auto'
        ? { versionNegotiation: { mode: 'auto' as const } }
        : { supportedProtocolVersions: ['2025-11-25'] }),
    },
  );
  if (options.onElicit)
    client.setRequestHandler('elicitation/create', (r: any) => options.onElicit!(r.params) as any);
  const responses: SeenResponse[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    responses.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: recordingFetch,
    requestInit: options.headers ? { headers: options.headers } : undefined,
  });
  await client.connect(transport);
  return { client, responses, close: () => client.close() };
}

/** A result without `_meta` (2026-07-28 puts `serverInfo` there). */
export function withoutMeta(result: any): any {
  const { _meta, ...rest } = result;
  return rest;
}

/** Text of the first content block of a tool result. */
export function textOf(result: any): string {
  return result.content[0].text;
}

/** A promise with its resolver, for handlers the test holds open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits until `condition` holds (checked every 5 ms, for at most 5 s). */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not reached within 5 s');
}
