import { afterAll, describe, expect, it } from 'vitest';
import { fixtureForTest as start, stopAll } from './support/stdio-process.ts';

// Each test runs its own server process; they are independent, so they run concurrently.
afterAll(stopAll);

const NO_BATCH = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32600,
    message: 'Invalid Request: batches are not supported by the negotiated protocol revision',
  },
};
const ADD = { a: 2, b: 3 };
const FIVE = { content: [{ type: 'text', text: '5' }] };

describe.concurrent('stdio: the initialize handshake', () => {
  it('answers ping before initialize and refuses other requests, naming initialize', async (test) => {
    const server = start(test);
    expect((await server.request('ping')).result).toEqual({});
    expect((await server.request('tools/list')).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: tools/list before initialize; the client must send initialize first',
    });
    expect((await server.callTool('add', ADD)).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: tools/call before initialize; the client must send initialize first',
    });
    // No revision is negotiated yet, so no batches either.
    server.readAll();
    server.send([{ jsonrpc: '2.0', id: 'early', method: 'ping' }]);
    expect(await server.nextLine()).toEqual(NO_BATCH);
    expect(server.nullIdErrors).toHaveLength(1);
    // The refusals did not spoil the connection.
    expect((await server.initialize()).result.protocolVersion).toBe('2025-11-25');
    expect((await server.callTool('add', ADD)).result).toEqual(FIVE);
  });

  it('refuses a second initialize and keeps the first handshake', async (test) => {
    const server = start(test);
    await server.initialize('2025-06-18');
    const again = await server.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'again', version: '1' },
    });
    expect(again.error).toEqual({
      code: -32600,
      message: 'Invalid Request: this connection is already initialized',
    });
    // Still 2025-06-18: invalid arguments are a protocol error there, not an isError result.
    expect((await server.callTool('add', { a: 'x', b: 3 })).error).toEqual({
      code: -32602,
      message: 'Invalid arguments for tool add: a: Invalid input: expected number, received string',
    });
  });
});

describe.concurrent('stdio: version negotiation, and batches only where the revision has them', () => {
  const BATCH = [
    { jsonrpc: '2.0', id: 'b1', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    { jsonrpc: '2.0', id: 'b2', method: 'tools/call', params: { name: 'add', arguments: ADD } },
    { jsonrpc: '2.0', id: 'b3', method: 'no/such/method' },
  ];
  // One array of responses in request order; nothing for the notification.
  const ANSWERS = [
    { jsonrpc: '2.0', id: 'b1', result: {} },
    { jsonrpc: '2.0', id: 'b2', result: FIVE },
    {
      jsonrpc: '2.0',
      id: 'b3',
      error: { code: -32601, message: 'Method not found: no/such/method' },
    },
  ];

  it.for([
    ['2024-11-05', '2024-11-05', NO_BATCH],
    ['2025-03-26', '2025-03-26', ANSWERS],
    ['2025-06-18', '2025-06-18', NO_BATCH],
    ['2025-11-25', '2025-11-25', NO_BATCH],
    ['1999-01-01', '2025-11-25', NO_BATCH],
  ] as const)('offered %s, answers %s', async ([offered, answered, batchAnswer], test) => {
    const server = start(test);
    const { result } = await server.initialize(offered);
    expect(result.protocolVersion).toBe(answered);
    expect(result.serverInfo).toEqual({ name: 'stdio-fixture', version: '1.0.0' });
    expect(result.capabilities).toHaveProperty('tools');
    server.readAll();
    server.send(BATCH);
    expect(await server.nextLine()).toEqual(batchAnswer);
    expect((await server.callTool('add', ADD)).result).toEqual(FIVE);
    // A rejected batch is answered once, as a whole; nothing inside it is served.
    expect(server.responsesTo('b1')).toHaveLength(batchAnswer === NO_BATCH ? 0 : 1);
    expect(server.nullIdErrors).toHaveLength(batchAnswer === NO_BATCH ? 1 : 0);
  });
});

describe.concurrent('stdio: graceful shutdown', () => {
  const SLOW = { jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'slow' } };
  const DONE = { content: [{ type: 'text', text: 'done' }] };

  it('finishes an in-flight call after stdin closes, then exits with code 0', async (test) => {
    const server = start(test);
    await server.initialize();
    server.send(SLOW);
    await server.stderrContains('slow started');
    server.closeStdin();
    expect((await server.response('slow')).result).toEqual(DONE);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  const signals = ['SIGTERM', 'SIGINT'] as const;
  it.for(signals)(
    'finishes an in-flight call on %s, then exits with code 0',
    async (signal, test) => {
      const server = start(test);
      await server.initialize();
      server.send(SLOW);
      await server.stderrContains('slow started');
      server.kill(signal);
      expect((await server.response('slow')).result).toEqual(DONE);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.responsesTo('slow')).toHaveLength(1);
    },
  );
});
