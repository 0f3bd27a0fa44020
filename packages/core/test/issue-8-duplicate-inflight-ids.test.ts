import { describe, expect, it } from 'vitest';
import { Engine, JsonRpcError, type Channel, type ChannelSink } from '../src/jsonrpc/index.ts';

// Found by fuzzing (issue 8): a request whose id was reused while it was in flight escaped the
// engine's bookkeeping, so closing the connection never aborted it (a subscription held on
// forever). Clients of the shared stateless HTTP connection reuse ids all the time.
describe('requests that share an id while in flight', () => {
  it('are each aborted when the connection closes, and each answered otherwise', async () => {
    let sink!: ChannelSink;
    const sent: string[] = [];
    const channel: Channel = {
      start: (s) => (sink = s),
      send: (frame) => void sent.push(frame),
      close: async () => {},
    };
    const aborted: string[] = [];
    const engine = new Engine(channel, {
      request: (request) =>
        new Promise((resolve) => {
          if (request.method === 'quick') return resolve({ quick: true });
          request.signal.addEventListener('abort', () =>
            aborted.push(`${request.method} ${String(request.signal.reason)}`),
          );
        }),
      notification: () => {},
      mapError: (e) =>
        e instanceof JsonRpcError ? e.toJSON() : { code: -32603, message: 'Internal error' },
      acceptBatch: () => false,
    });
    sink.frame('{"jsonrpc":"2.0","id":1,"method":"first"}', 'a');
    sink.frame('{"jsonrpc":"2.0","id":1,"method":"second"}', 'b');
    sink.frame('{"jsonrpc":"2.0","id":1,"method":"quick"}', 'c');
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"quick":true}}']);
    expect(engine.inFlight).toBe(2);
    sink.abandoned('a');
    expect(aborted).toEqual(['first client disconnected']);
    await engine.close();
    expect(aborted).toEqual(['first client disconnected', 'second server shutting down']);
  });
});
