// The JSON-RPC frames tests send a server first, spelled once.

/**
 * An `initialize` request of a 2025-11-25 client, as a raw stdio or HTTP test sends it.
 *
 * @example
 * spawnSync(process.execPath, [server], { input: `${JSON.stringify(initializeRequest())}\n` });
 */
export function initializeRequest(clientName = 't', id: number | string = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: clientName, version: '1' },
    },
  } as const;
}
