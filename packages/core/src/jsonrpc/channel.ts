import type { WireError } from './messages.js';

/**
 * What a transport gives the engine: whole frames in, whole frames out. A frame is the text of
 * one JSON-RPC message (or batch). Transports do I/O only and know nothing of JSON-RPC.
 */
export interface Channel {
  /** The transport's own session id, when it has sessions (HTTP); connections are named by it. */
  readonly id?: string;
  /**
   * Where the ids of requests sent on this channel start (default 0): a session that several
   * processes serve at once gives each its own range, so the peer's answers match one request.
   */
  readonly firstOutboundId?: number;
  /**
   * The peer reaches this process over a network (HTTP) rather than as the local user (stdio,
   * in memory): what only the server's owner should read is held back from it by default.
   */
  readonly remote?: boolean;
  /** Starts delivering incoming frames and events to `sink`. */
  start(sink: ChannelSink): void;
  /**
   * Queues one frame; the transport handles backpressure. `route` ties the frame to the inbound
   * frame it belongs to (a response, or a notification or request sent while serving it), so
   * transports with one stream per request (HTTP) can put it on the right one.
   */
  send(frame: string, route?: FrameRoute): void;
  /**
   * Everything the engine will ever send for the inbound frame with this `origin` has been
   * sent (its response, or nothing at all for notifications). Optional: stream-less transports
   * ignore it.
   */
  settle?(origin: unknown): void;
  /** Flushes what was sent and releases the I/O. */
  close(): Promise<void>;
}

/** Where an outgoing frame belongs. */
export interface FrameRoute {
  /** The `origin` the transport gave with the inbound frame this one relates to. */
  readonly origin: unknown;
  /** The answer to that inbound frame (nothing more follows), rather than a message sent meanwhile. */
  readonly final: boolean;
  /**
   * The JSON-RPC error a final frame answers with, when it is an error response to a request:
   * a transport that maps errors to its own statuses (HTTP) reads it here instead of parsing
   * the frame back.
   */
  readonly error?: WireError;
}

/** Who sent a frame, as far as the transport knows (HTTP); stream transports know nothing. */
export interface Peer {
  /** What the transport's authentication attached to the request, if anything. */
  readonly auth?: unknown;
  /** The client's network address, when the runtime exposes it. */
  readonly remoteAddress?: string;
  /** The authenticated identity `auth` names, which the transport's sessions are bound to. */
  readonly principal?: string;
  /** A request header by lower-case name (HTTP): trace context, for middleware. */
  readonly header?: (name: string) => string | undefined;
}

export interface ChannelSink {
  /**
   * One inbound frame; `origin` is the transport's own token, handed back in {@link FrameRoute};
   * `peer` is what the transport knows of the sender; `parsed` carries the frame already parsed
   * with `parseFrame` (transports that had to look inside it, such as HTTP, pass it on instead
   * of having it parsed twice).
   */
  frame(text: string, origin?: unknown, peer?: Peer, parsed?: { value: unknown }): void;
  /** A frame longer than the transport's limit arrived and was discarded unread. */
  oversize(bytes: number, limit: number): void;
  /** The peer will send nothing more (EOF). Requests in flight may still be answered. */
  ended(): void;
  /** Nobody will read the answer to the frame with this origin (an HTTP client went away). */
  abandoned(origin: unknown): void;
}
