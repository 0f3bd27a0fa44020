import type { McpFwServer } from '@mcp-fw/core';
import {
  createClientPeer,
  createInMemoryPair,
  type ClientPeerHandlers,
  type Engine,
} from '@mcp-fw/core/transport';
import { handshake } from './lists.js';
import type { InitializeResult } from './wire.js';

/** A client connected to a server in this process, past the handshake. */
export interface InProcessClient {
  readonly peer: Engine;
  readonly initializeResult: InitializeResult;
  close(): Promise<void>;
}

/**
 * Connects to `server` over core's in-memory channels (no process, no port) and runs the
 * handshake, declaring `capabilities` (with `handlers.request` answering what they allow).
 */
export async function connectInProcess(
  server: McpFwServer,
  handlers: ClientPeerHandlers = {},
  capabilities: Record<string, unknown> = {},
): Promise<InProcessClient> {
  const [clientSide, serverSide] = createInMemoryPair();
  const connection = server.connect(serverSide);
  const peer = createClientPeer(clientSide, handlers);
  const initializeResult = await handshake(peer, capabilities);
  return {
    peer,
    initializeResult,
    close: async () => {
      peer.abandon('connection closed');
      await connection.close();
      await peer.close();
    },
  };
}
