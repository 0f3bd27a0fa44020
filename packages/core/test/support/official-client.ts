import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** How an official client picks its revision: `auto` (2026-07-28 first) or 2025-11-25 only. */
export type ClientMode = 'auto' | 'legacy';

/**
 * An official client 2.x in `mode` that declares elicitation and answers every form with a
 * new name (`Ada1`, `Ada2`, …), so a test can tell the answers apart.
 */
export function namingClient(mode: ClientMode, name: string): Client {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(mode === 'auto'
        ? { versionNegotiation: { mode: 'auto' as const } }
        : { supportedProtocolVersions: ['2025-11-25'] }),
    },
  );
  let n = 0;
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: `Ada${++n}` },
  }));
  return client;
}

/** A message the server sent, with the method of the request it answers (for responses). */
export interface SeenMessage {
  message: any;
  method?: string;
}

/**
 * Connects `client` over `transport` and records every message the server sends, each response
 * with the method of the request it answers, so a test can validate them against the schema.
 */
export async function connectRecording(
  client: Client,
  transport: StreamableHTTPClientTransport,
): Promise<SeenMessage[]> {
  const seen: SeenMessage[] = [];
  const sent = new Map<string, string>();
  const send = transport.send.bind(transport);
  transport.send = ((message: any, options?: any) => {
    if (message.method && message.id !== undefined)
      sent.set(JSON.stringify(message.id), message.method);
    return (send as (m: unknown, o?: unknown) => Promise<void>)(message, options);
  }) as typeof transport.send;
  await client.connect(transport);
  const onmessage = transport.onmessage!;
  transport.onmessage = (message: any, extra?: any) => {
    seen.push({
      message,
      method:
        'id' in message && !('method' in message)
          ? sent.get(JSON.stringify(message.id))
          : undefined,
    });
    (onmessage as (m: unknown, e?: unknown) => void)(message, extra);
  };
  return seen;
}
