import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as SseV1 } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FixtureProcess } from './fixture-process.ts';

export type HttpClientKind =
  | '@modelcontextprotocol/client 2.x, Streamable HTTP'
  | '@modelcontextprotocol/sdk 1.x, Streamable HTTP'
  | '@modelcontextprotocol/sdk 1.x, HTTP+SSE';

/** One message the server wrote, with the method of the request it answers (for responses). */
export interface ServerFrame {
  readonly message: any;
  readonly requestMethod?: string;
}

/** The calls the tests make, the same for every SDK generation and transport. */
export interface HttpClient {
  callTool(
    name: string,
    args?: Record<string, unknown>,
    onprogress?: (progress: unknown) => void,
  ): Promise<unknown>;
  setLoggingLevel(level: string): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  getPrompt(name: string, args?: Record<string, string>): Promise<unknown>;
  close(): Promise<void>;
  /** Everything the server sent this client so far, in order. */
  readonly frames: ServerFrame[];
  /** The SDK's own client, for every other call. */
  readonly raw: any;
}

/** How the client answers the server's requests; each also declares the matching capability. */
export interface ClientAnswers {
  onElicit?: (params: any) => unknown;
  onSample?: (params: any) => unknown;
}

interface Tappable {
  onmessage?: (message: any, extra?: any) => void;
  send(message: any, options?: any): Promise<void>;
}

/**
 * Records every message the transport delivers to the client, including the initialize answer
 * (the client installs `onmessage` during connect, so the tap sits behind a setter), and maps
 * each request id the client sends to its method. For SDK 1.x, which always offers its latest
 * revision, the initialize offer is rewritten so that `revision` is negotiated.
 */
function tap(transport: Tappable, revision: string, rewriteOffer: boolean): ServerFrame[] {
  const frames: ServerFrame[] = [];
  const methods = new Map<string, string>();
  let handler: Tappable['onmessage'];
  const tapped = (message: any, extra?: any) => {
    const answers = !('method' in message) && 'id' in message;
    frames.push({
      message,
      requestMethod: answers ? methods.get(JSON.stringify(message.id)) : undefined,
    });
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler ? tapped : undefined),
    set: (next) => {
      handler = next;
    },
  });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) {
      methods.set(JSON.stringify(message.id), message.method);
      if (rewriteOffer && message.method === 'initialize') {
        message = { ...message, params: { ...message.params, protocolVersion: revision } };
      }
    }
    return send(message, options);
  };
  return frames;
}

/** Connects an official client to the fixture over HTTP, negotiating `revision`. */
export async function connectHttpClient(
  kind: HttpClientKind,
  revision: string,
  fixture: FixtureProcess,
  answers: ClientAnswers = {},
): Promise<HttpClient> {
  const info = { name: 'mcp-fw-http-interop', version: '1.0.0' };
  const { onElicit, onSample } = answers;
  const capabilities = {
    ...(onElicit ? { elicitation: {} } : {}),
    ...(onSample ? { sampling: {} } : {}),
  };
  if (kind === '@modelcontextprotocol/client 2.x, Streamable HTTP') {
    const client = new ClientV2(info, { supportedProtocolVersions: [revision], capabilities });
    if (onElicit)
      client.setRequestHandler(
        'elicitation/create',
        (request: any) => onElicit(request.params) as any,
      );
    if (onSample)
      client.setRequestHandler(
        'sampling/createMessage',
        (request: any) => onSample(request.params) as any,
      );
    const transport = new StreamableV2(fixture.url);
    const frames = tap(transport as unknown as Tappable, revision, false);
    await client.connect(transport);
    return {
      frames,
      raw: client,
      callTool: (name, args, onprogress) =>
        client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined),
      setLoggingLevel: (level) => client.setLoggingLevel(level as any),
      readResource: (uri) => client.readResource({ uri }),
      getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
      close: () => client.close(),
    };
  }
  const client = new ClientV1(info, { capabilities });
  if (onElicit)
    client.setRequestHandler(ElicitRequestSchema, (request) => onElicit(request.params) as any);
  if (onSample)
    client.setRequestHandler(
      CreateMessageRequestSchema,
      (request) => onSample(request.params) as any,
    );
  const transport =
    kind === '@modelcontextprotocol/sdk 1.x, HTTP+SSE'
      ? new SseV1(fixture.sseUrl)
      : new StreamableV1(fixture.url);
  const frames = tap(transport as unknown as Tappable, revision, true);
  await client.connect(transport);
  return {
    frames,
    raw: client,
    callTool: (name, args, onprogress) =>
      client.callTool(
        { name, arguments: args },
        undefined,
        onprogress ? { onprogress } : undefined,
      ),
    setLoggingLevel: (level) => client.setLoggingLevel(level as any),
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    close: () => client.close(),
  };
}
