// `@mcp-fw/core/transport`: the contract between MCP servers, transports and clients, for code
// that builds its own transport, client or relay (the mcp-fw CLI is one). Runtime-neutral: it
// loads no `node:*` module, so it runs wherever the web-standard HTTP handler does.

/**
 * The channel a transport gives a connection (whole frames in and out), with the sink it
 * delivers inbound frames to and the route that ties an outbound frame to an inbound one.
 *
 * @example
 * ```ts
 * import type { Channel, ChannelSink } from '@mcp-fw/core/transport';
 *
 * let sink: ChannelSink | undefined;
 * const channel: Channel = {
 *   start: (s) => void (sink = s),
 *   send: (frame) => socket.send(frame),
 *   close: async () => socket.close(),
 * };
 * socket.onmessage = (event) => sink?.frame(String(event.data));
 * server.connect(channel);
 * ```
 */
export type { Channel, ChannelSink, FrameRoute, Peer } from './jsonrpc/index.js';
export type { JsonRpcId, JsonRpcRequest, JsonRpcNotification } from './jsonrpc/index.js';

/**
 * Core's JSON-RPC engine, the one peer both ends of an mcp-fw connection run on: requests out
 * and their answers, requests in and theirs, notifications, cancellation. `JsonRpcError` is
 * what a request rejects with (and what a handler throws to answer with an error).
 *
 * @example
 * ```ts
 * import { Engine, JsonRpcError } from '@mcp-fw/core/transport';
 *
 * const engine = new Engine(channel, {
 *   request: (request) => ({ echoed: request.params }),
 *   notification: () => {},
 *   mapError: (error) => (error instanceof JsonRpcError ? error.toJSON() : { code: -32603, message: String(error) }),
 *   acceptBatch: () => false,
 * });
 * ```
 */
export {
  Engine,
  InboundRequest,
  JsonRpcError,
  JsonRpcCode,
  REQUEST_TIMEOUT_CODE,
  type Abortable,
  type EngineHandlers,
  type EngineOptions,
  type OutboundOptions,
  type WireError,
} from './jsonrpc/index.js';

/**
 * A client peer on any channel (core's engine with client defaults): see
 * {@link createClientPeer}.
 *
 * @example
 * ```ts
 * import { createClientPeer, createInMemoryPair } from '@mcp-fw/core/transport';
 *
 * const [clientSide, serverSide] = createInMemoryPair();
 * server.connect(serverSide);
 * const peer = createClientPeer(clientSide, { notification: (method) => console.error(method) });
 * await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'me', version: '1' } });
 * ```
 */
export {
  createClientPeer,
  type ClientPeerHandlers,
  type ClientPeerOptions,
} from './protocol/client-peer.js';

/**
 * Two linked in-memory channels (what one sends, the other receives on a later microtask).
 *
 * @example
 * ```ts
 * import { createInMemoryPair } from '@mcp-fw/core/transport';
 * const [clientSide, serverSide] = createInMemoryPair();
 * server.connect(serverSide);
 * ```
 */
export { createInMemoryPair } from './transports/in-memory.js';

/**
 * What core's transports need of a server (`McpFwServer` is one), and of each connection it
 * opens; `EraMode` says how a connection decides its protocol era.
 *
 * @example
 * ```ts
 * import type { Servable } from '@mcp-fw/core/transport';
 * const relay: Servable = { connect: (channel, mode) => openSession(channel, mode), registry: { tool: () => undefined } };
 * ```
 */
export type { Servable, ServedConnection } from './servable.js';
export type { EraMode, ToolLookup, LimitRefusalEvent } from './protocol/index.js';

/**
 * The revisions served with an `initialize` handshake, newest first, and the latest of them
 * (what a client that speaks them all offers); the stateless revisions served without one.
 *
 * @example
 * ```ts
 * import { LATEST_LEGACY } from '@mcp-fw/core/transport';
 * await peer.request('initialize', { protocolVersion: LATEST_LEGACY, capabilities: {}, clientInfo });
 * ```
 */
export {
  LEGACY_REVISIONS,
  LATEST_LEGACY,
  isLegacyRevision,
  type LegacyRevision,
} from './protocol/eras/revisions.js';
export { MODERN_REVISIONS, isModernRevision } from './protocol/eras/modern/envelope.js';

/**
 * The 2026-07-28 request envelope: the `_meta` keys (`ENVELOPE_META.protocolVersion` is
 * `io.modelcontextprotocol/protocolVersion`, …) and the `_meta` a client puts on every request.
 *
 * @example
 * ```ts
 * import { requestEnvelope } from '@mcp-fw/core/transport';
 * const _meta = requestEnvelope('2026-07-28', { elicitation: {} }, { name: 'me', version: '1' });
 * await peer.request('tools/list', { _meta });
 * ```
 */
export { META as ENVELOPE_META, requestEnvelope } from './protocol/eras/modern/envelope.js';

/**
 * The `_meta` key (`dev.mcp-fw/inputKey`) on which an mcp-fw server's legacy question
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`) names the key its handler gave
 * it; `@mcp-fw/client` hands it to input handlers as `info.key`.
 *
 * @example
 * ```ts
 * import { INPUT_KEY_META } from '@mcp-fw/core/transport';
 * const key = (request.params?._meta as Record<string, unknown> | undefined)?.[INPUT_KEY_META];
 * ```
 */
export { INPUT_KEY_META } from './protocol/eras/extension-ids.js';

/**
 * The `_meta` key (`dev.mcp-fw/requiredCapabilities`) on which an mcp-fw server's legacy
 * `isError` tool result names the client capabilities whose absence failed the call (what
 * 2026-07-28 answers as -32021 `data.requiredCapabilities`).
 *
 * @example
 * ```ts
 * import { REQUIRED_CAPABILITIES_META } from '@mcp-fw/core/transport';
 * const missing = result.isError ? result._meta?.[REQUIRED_CAPABILITIES_META] : undefined;
 * ```
 */
export { REQUIRED_CAPABILITIES_META } from './protocol/eras/extension-ids.js';

/**
 * Every error code mcp-fw puts on the wire (JSON-RPC's, the MCP ones, the 2026-07-28 ones), in
 * one table: what a client compares a `JsonRpcError`'s `code` with.
 *
 * @example
 * ```ts
 * import { ErrorCode } from '@mcp-fw/core/transport';
 * if (error.code === ErrorCode.UnsupportedProtocolVersion) retryWith(error.data.supported);
 * ```
 */
export { ErrorCode } from './protocol/error-codes.js';

/**
 * Log levels, lowest first, and the rule for whether a message at one level passes a session's
 * threshold (`logging/setLevel`).
 *
 * @example
 * ```ts
 * import { logLevelPasses } from '@mcp-fw/core/transport';
 * logLevelPasses('error', 'warning'); // true
 * logLevelPasses('info', 'warning'); // false
 * ```
 */
export {
  LOG_LEVELS,
  isLogLevel,
  passes as logLevelPasses,
  type LogLevel,
} from './protocol/log-levels.js';

/**
 * `list_changed` notifications and the listen-stream subscriptions of 2026-07-28: the lists,
 * the filter keys a listen request opts in with, the `_meta` key that tags a stream's
 * notifications, and the notification itself.
 *
 * @example
 * ```ts
 * import { listChangedNotification, wantsListChanged } from '@mcp-fw/core/transport';
 * if (wantsListChanged(listenParams.notifications, 'tools')) send(listChangedNotification('tools', listenId));
 * ```
 */
export {
  LIST_NAMES,
  LIST_CHANGED_FILTER_KEYS,
  SUBSCRIPTION_ID,
  listChangedNotification,
  subscriptionTag,
  wantsListChanged,
  type ListName,
  type NotificationMessage,
} from './protocol/list-changed.js';
