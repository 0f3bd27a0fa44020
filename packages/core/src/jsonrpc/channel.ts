/**
 * What a transport gives the engine: whole frames in, whole frames out. A frame is the text of
 * one JSON-RPC message (or batch). Transports do I/O only and know nothing of JSON-RPC.
 */
export interface Channel {
  start(sink: ChannelSink): void;
  /** Queues one frame; the transport handles backpressure. */
  send(frame: string): void;
  /** Flushes what was sent and releases the I/O. */
  close(): Promise<void>;
}

export interface ChannelSink {
  frame(text: string): void;
  /** A frame longer than the transport's limit arrived and was discarded unread. */
  oversize(bytes: number, limit: number): void;
  /** The peer will send nothing more (EOF). Requests in flight may still be answered. */
  ended(): void;
}
