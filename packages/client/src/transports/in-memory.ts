import { createInMemoryPair, type Servable } from '@mcp-fw/core/transport';
import type { ClientTransport } from './transport.js';

/**
 * A server in this process, reached over core's linked in-memory channels: no process, no port.
 * Closing the transport closes the server's end of the connection (not the server).
 */
export function openInMemory(server: Servable): ClientTransport {
  const [clientSide, serverSide] = createInMemoryPair();
  const connection = server.connect(serverSide);
  return {
    kind: 'in-memory',
    channel: clientSide,
    close: async () => {
      await connection.close();
    },
  };
}
