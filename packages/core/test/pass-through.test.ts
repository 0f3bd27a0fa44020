import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, JsonRpcError, Tool, UserError, type PassThroughCall } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';

// The hook before dispatch (protocol/pass-through.ts) that @mcp-fw/proxy answers forwarded calls
// with: what it takes is answered as it says, what it leaves is dispatched as ever, and a taken
// tools/call that fails is answered as a tool handler's failure is.

class Desk {
  @Tool({ description: 'Adds', input: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return String(a + b);
  }
}

function serverTaking(take: (call: PassThroughCall) => Promise<unknown> | undefined) {
  const server = createServer({ name: 't', version: '1', providers: [Desk] });
  const offered: PassThroughCall[] = [];
  server.passThrough({
    take: (call) => {
      offered.push(call);
      return take(call);
    },
  });
  return { server, offered };
}

describe('the pass-through hook', () => {
  it('a call the hook leaves is dispatched; one it takes is answered with its result', async () => {
    const { server, offered } = serverTaking((call) =>
      call.params.name === 'passed'
        ? Promise.resolve({ content: [{ type: 'text', text: `passed for ${call.era}` }] })
        : undefined,
    );
    const client = await connectTestClient(server, { protocolVersion: '2025-11-25' });
    expect((await client.callTool('add', { a: 1, b: 2 })).content[0]).toMatchObject({ text: '3' });
    expect((await client.callTool('passed', {})).content[0]).toMatchObject({
      text: 'passed for legacy',
    });
    expect(offered.map((c) => [c.method, c.params.name, c.protocolVersion])).toEqual([
      ['tools/call', 'add', '2025-11-25'],
      ['tools/call', 'passed', '2025-11-25'],
    ]);
    // Only member calls are offered.
    await client.listTools();
    expect(offered).toHaveLength(2);
    await client.close();
  });

  it("a taken tools/call that fails is an isError result, a JsonRpcError the caller's error", async () => {
    const { server } = serverTaking((call) =>
      call.params.name === 'refused'
        ? Promise.reject(new UserError('Upstream "u" answered badly'))
        : Promise.reject(new JsonRpcError(-32602, 'Upstream "u": Unknown tool: nope')),
    );
    const client = await connectTestClient(server, { protocolVersion: '2025-11-25' });
    const refused = await client.callTool('refused', {});
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: 'Upstream "u" answered badly' });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({
      code: -32602,
      message: 'Upstream "u": Unknown tool: nope',
    });
    await client.close();
  });

  it("a caller's cancellation reaches the taken call through onAbort", async () => {
    let aborted: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { server } = serverTaking(
      (call) =>
        new Promise(() => {
          call.onAbort((reason) => (aborted = reason));
          started();
        }),
    );
    const client = await connectTestClient(server, { protocolVersion: '2025-11-25' });
    void client.rawRequest('tools/call', { name: 'forever', arguments: {} }).catch(() => {});
    await running;
    // The test client numbers its requests from 0: the initialize was 0, this call is 1.
    client.notify('notifications/cancelled', { requestId: 1, reason: 'changed my mind' });
    await expect.poll(() => aborted).toBe('changed my mind');
    await client.close();
  });

  it('a hook that settles failures answers them through call.failed, and core adds no promise around its call', async () => {
    const server = createServer({ name: 't', version: '1', providers: [Desk] });
    server.passThrough({
      settlesFailures: true,
      take: (call) => {
        const failure =
          call.params.name === 'nope'
            ? new JsonRpcError(-32602, 'Upstream "u": Unknown tool: nope')
            : new UserError('Upstream "u" answered badly');
        // 'unsettled' rejects as it is: core, told the hook settles failures, does not map it.
        if (call.params.name === 'unsettled') return Promise.reject(failure);
        return Promise.reject(failure).then(undefined, (error) => call.failed(error));
      },
    });
    const client = await connectTestClient(server, { protocolVersion: '2025-11-25' });
    const refused = await client.callTool('refused', {});
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: 'Upstream "u" answered badly' });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({
      code: -32602,
      message: 'Upstream "u": Unknown tool: nope',
    });
    // Not an isError result: the hook's own rejection reaches the engine as a JSON-RPC error.
    await expect(client.callTool('unsettled', {})).rejects.toMatchObject({
      message: expect.stringContaining('Upstream "u" answered badly'),
    });
    await client.close();
  });
});
