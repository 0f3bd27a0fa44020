import type { McpServer } from '@mcp-fw/core';
import type { Channel, ChannelSink } from './channel-types.js';
import { JsonRpcPeer, type PeerHandlers } from './jsonrpc-peer.js';
import { handshake } from './lists.js';

/** A client connected to a server in this process, past the handshake. */
export interface InProcessClient {
  readonly peer: JsonRpcPeer;
  readonly initializeResult: Record<string, any>;
  close(): Promise<void>;
}

/**
 * Connects to `server` through a channel of our own (no process, no port) and runs the
 * handshake, declaring `capabilities` (with `handlers.request` answering what they allow). Frames cross on a later microtask, as real I/O would deliver them.
 */
export async function connectInProcess(server: McpServer, handlers: PeerHandlers = {}, capabilities: Record<string, unknown> = {}): Promise<InProcessClient> {
  let sink: ChannelSink | undefined;
  const peer = new JsonRpcPeer((frame) => queueMicrotask(() => sink?.frame(frame)), handlers);
  const channel: Channel = {
    start: (s) => void (sink = s),
    send: (frame) => queueMicrotask(() => peer.receive(frame)),
    close: async () => {},
  };
  const connection = server.connect(channel);
  const initializeResult = await handshake(peer, capabilities);
  return {
    peer,
    initializeResult,
    close: async () => {
      peer.failAll(new Error('connection closed'));
      await connection.close();
    },
  };
}
