import { isModernRevision, type Servable } from '@mcp-fw/core/transport';
import { openStdio, type CommandTarget, type StdioTransportOptions } from '#stdio-transport';
import { McpClient } from './client.js';
import type { OAuth } from './auth/oauth.js';
import { TransportError } from './errors.js';
import { inputCapabilities } from './input.js';
import { negotiate, type DiscoverResult, type NegotiationSettings } from './negotiate.js';
import { Session } from './session.js';
import { httpFetch } from '#http-fetch';
import { HttpSseTransport } from './transports/http-sse.js';
import { openInMemory } from './transports/in-memory.js';
import {
  StreamableHttpTransport,
  type HttpTransportOptions,
} from './transports/streamable-http.js';
import type { ClientTransport } from './transports/transport.js';
import type { InputHandlers, LogMessage } from './types.js';

/**
 * What {@link connect} reaches: an `http(s)` URL (Streamable HTTP, or the 2024 HTTP+SSE
 * transport for servers that old), a command to start (stdio), or a server in this process
 * (in memory, e.g. an `McpFwServer`).
 */
export type ConnectTarget = string | URL | CommandTarget | Servable;

/** Options of {@link connect}. */
export interface ConnectOptions extends HttpTransportOptions {
  /** How the client names itself (default `{ name: 'mcp-fw-client', version: '0.1.0' }`). */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Capabilities declared besides those the {@link handlers} imply. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Answers the server's questions (elicitation, sampling, roots), in either era. */
  readonly handlers?: InputHandlers;
  /**
   * Pins the protocol revision: `2026-07-28` (no `initialize`), or a legacy one offered at
   * `initialize` (and required back). Default: 2026-07-28 where the server offers it, else
   * the newest legacy revision the server accepts.
   */
  readonly protocolVersion?: string;
  /** A `server/discover` result cached earlier: connects in 2026-07-28 with no round trip. */
  readonly discover?: DiscoverResult;
  /** Default timeout of each request in ms (default 60 000; `Infinity`: none). */
  readonly timeoutMs?: number;
  /**
   * How long a server started over stdio (or in memory) may take to answer `server/discover`
   * before it is taken for a legacy server (default 3000 ms).
   */
  readonly probeTimeoutMs?: number;
  /** Most `input_required` rounds one call may take (default 10). */
  readonly maxInputRounds?: number;
  /** The level of log messages wanted (`logging/setLevel`, or the 2026-07-28 envelope's `logLevel`). */
  readonly logLevel?: string;
  /** Log messages from the server. */
  readonly onLog?: (message: LogMessage) => void;
  /** Things worth knowing that fail no call (default: written to stderr with `console.error`). */
  readonly onWarning?: (message: string) => void;
  /** Check `structuredContent` against each tool's `outputSchema` (default true). */
  readonly validateOutput?: boolean;
  /** For URL targets: which HTTP transport (default: Streamable HTTP, falling back to HTTP+SSE). */
  readonly transport?: 'streamable-http' | 'http+sse';
  /**
   * For legacy Streamable HTTP sessions: open the standalone GET stream after `initialize`, where
   * servers send requests and notifications tied to no call (default true; 405 is fine).
   */
  readonly standaloneStream?: boolean;
  /**
   * Follow tasks (default true): 2026-07-28 requests declare the tasks extension, and a
   * 2025-11-25 call of a tool that allows tasks asks for one; `callTool` follows the task to
   * the tool's result either way. `false`: calls run in their request, as before tasks.
   */
  readonly tasks?: boolean;
  /** For command targets. */
  readonly stdio?: StdioTransportOptions;
  /**
   * For URL targets: OAuth, from `oauth()` or `clientCredentials()`. The client signs in when
   * the server answers 401 (or 403 `insufficient_scope`) and retries; see the client guide.
   */
  readonly auth?: OAuth;
}

/**
 * Connects to an MCP server and negotiates the protocol era: `server/discover` for 2026-07-28
 * where the server offers it, else `initialize` (down to 2024-11-05). Over HTTP, a server that
 * refuses the Streamable HTTP `initialize` with 400, 404 or 405 is tried as a 2024-11-05
 * HTTP+SSE server. Rejects with a `TransportError`, a `NegotiationError` or the server's
 * `JsonRpcError`, naming what went wrong.
 *
 * @example
 * ```ts
 * import { connect } from '@mcp-fw/client';
 *
 * const remote = await connect('https://example.com/mcp', { headers: { authorization: `Bearer ${token}` } });
 * const local = await connect({ command: 'node', args: ['dist/server.js'] });
 * const inProcess = await connect(createServer({ name: 'calc', version: '1', providers: [Calculator] }));
 * ```
 */
export async function connect(
  target: ConnectTarget,
  options: ConnectOptions = {},
): Promise<McpClient> {
  if (isServable(target)) return open(openInMemory(target), options);
  if (isCommand(target)) return open(openStdio(target, options.stdio), options);
  const url = toUrl(target);
  if (options.auth)
    options = { ...options, fetch: options.auth.fetchFor(url, options.fetch ?? httpFetch) };
  if (options.transport === 'http+sse') return open(await openSse(url, options), options);
  try {
    return await open(new StreamableHttpTransport(url, options), options);
  } catch (error) {
    const old =
      error instanceof TransportError &&
      (error.status === 400 || error.status === 404 || error.status === 405) &&
      options.transport === undefined &&
      !(options.protocolVersion !== undefined && isModernRevision(options.protocolVersion));
    if (!old) throw error;
    let sse: HttpSseTransport;
    try {
      sse = await openSse(url, options);
    } catch (fallback) {
      throw new TransportError(
        `${error.message}; tried as a 2024-11-05 HTTP+SSE server too: ${(fallback as Error).message}`,
        { status: error.status, body: error.body, cause: fallback },
      );
    }
    return open(sse, options);
  }
}

async function openSse(url: URL, options: ConnectOptions): Promise<HttpSseTransport> {
  const transport = new HttpSseTransport(options);
  await transport.open(url, options.timeoutMs ?? 60_000);
  return transport;
}

async function open(transport: ClientTransport, options: ConnectOptions): Promise<McpClient> {
  const onWarning =
    options.onWarning ?? ((message: string) => console.error(`@mcp-fw/client: ${message}`));
  const handlers = options.handlers ?? {};
  const timeoutMs = options.timeoutMs ?? 60_000;
  const session = new Session(transport, {
    handlers,
    timeoutMs,
    maxInputRounds: options.maxInputRounds ?? 10,
    onLog: options.onLog,
    onWarning,
  });
  const settings: NegotiationSettings = {
    protocolVersion: options.protocolVersion,
    discover: options.discover,
    clientInfo: options.clientInfo ?? { name: 'mcp-fw-client', version: '0.1.0' },
    capabilities: { ...inputCapabilities(handlers), ...options.capabilities },
    logLevel: options.logLevel,
    probeTimeoutMs: options.probeTimeoutMs ?? 3000,
    timeoutMs,
    standaloneStream: options.standaloneStream ?? true,
    tasks: options.tasks ?? true,
  };
  // A legacy HTTP session the server forgot is replaced at the revision already negotiated.
  session.reinitialize = async () => {
    await negotiate(session, {
      ...settings,
      protocolVersion: session.protocolVersion,
      discover: undefined,
    });
  };
  try {
    const server = await negotiate(session, settings);
    return new McpClient(session, server, {
      validateOutput: options.validateOutput ?? true,
      timeoutMs,
      onWarning,
      handlers,
    });
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
}

function isServable(target: ConnectTarget): target is Servable {
  return typeof target === 'object' && typeof (target as Servable).connect === 'function';
}

function isCommand(target: ConnectTarget): target is CommandTarget {
  return (
    typeof target === 'object' &&
    !(target instanceof URL) &&
    typeof (target as CommandTarget).command === 'string'
  );
}

function toUrl(target: string | URL | CommandTarget | Servable): URL {
  let url: URL | undefined;
  try {
    url = target instanceof URL ? target : new URL(String(target));
  } catch {}
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new TypeError(
      `connect() needs an http(s) URL, a { command, args } to start, or a server object; got ${JSON.stringify(String(target))}`,
    );
  return url;
}
