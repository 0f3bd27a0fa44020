import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { createHttpHandler } from '@mcp-fw/core/http';
import {
  createClientPeer,
  createInMemoryPair,
  Engine,
  JsonRpcCode,
  JsonRpcError,
  LATEST_LEGACY,
  LIST_NAMES,
  listChangedNotification,
  LOG_LEVELS,
  logLevelPasses,
  REQUEST_TIMEOUT_CODE,
  SUBSCRIPTION_ID,
  wantsListChanged,
  type Channel,
  type ChannelSink,
  type Servable,
} from '@mcp-fw/core/transport';

// @mcp-fw/core/transport is what a client, relay or transport of one's own builds on (the CLI
// does): these tests use only it, against a real server.

class Desk {
  @Tool({ description: 'Asks for a name, logging and reporting progress', input: z.object({}) })
  async greet(_: object, ctx: Context) {
    ctx.progress(1, 2);
    ctx.log.info('asking');
    ctx.log.warning('still asking');
    const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }));
    return answer.action === 'accept'
      ? `Hello ${answer.content.name}`
      : `no answer: ${answer.action}`;
  }
}

class Extra {
  @Tool('Added at runtime')
  extra() {
    return 'extra';
  }
}

const clientInfo = { name: 'transport-test', version: '1' };

afterEach(() => vi.useRealTimers());

describe('@mcp-fw/core/transport: a client peer on core’s engine', () => {
  it('talks to a server over the in-memory pair: handshake, calls, server requests, notifications, errors', async () => {
    const server = createServer({ name: 'desk', version: '1', providers: [Desk] });
    const [clientSide, serverSide] = createInMemoryPair();
    const connection = server.connect(serverSide);
    const notifications: [string, unknown][] = [];
    const asked: unknown[] = [];
    const peer = createClientPeer(clientSide, {
      request: (method, params) => {
        asked.push([method, params?.message]);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      notification: (method, params) => notifications.push([method, params]),
    });
    expect(peer).toBeInstanceOf(Engine);
    const init = (await peer.request('initialize', {
      protocolVersion: LATEST_LEGACY,
      capabilities: { elicitation: {} },
      clientInfo,
    })) as any;
    expect(init.protocolVersion).toBe(LATEST_LEGACY);
    peer.notify('notifications/initialized');
    await peer.request('logging/setLevel', { level: 'warning' });

    const result = (await peer.request('tools/call', {
      name: 'greet',
      arguments: {},
      _meta: { progressToken: 't' },
    })) as any;
    expect(result.content[0].text).toBe('Hello Ada');
    expect(asked).toEqual([['elicitation/create', 'Your name?']]);
    expect(notifications).toEqual([
      ['notifications/progress', { progressToken: 't', progress: 1, total: 2 }],
      ['notifications/message', { level: 'warning', data: 'still asking' }],
    ]);
    // The server filtered by the rule the transport entry publishes.
    expect(logLevelPasses('info', 'warning')).toBe(false);
    expect(logLevelPasses('warning', 'warning')).toBe(true);

    server.add(new Extra());
    await peer.request('ping', {});
    expect(notifications.at(-1)).toEqual([listChangedNotification('tools').method, undefined]);

    const refused = peer.request('tools/call', { name: 'missing', arguments: {} });
    await expect(refused).rejects.toBeInstanceOf(JsonRpcError);
    await expect(refused).rejects.toMatchObject({ code: JsonRpcCode.InvalidParams });

    peer.abandon('test over');
    await connection.close();
    await peer.close();
  });

  it('answers a server request it has no handler for with -32601, and a thrown JsonRpcError as given', async () => {
    const logged: unknown[] = [];
    const logger = {
      error: (_: string, error?: unknown) => void logged.push(error),
      warn: () => {},
    };
    const server = createServer({ name: 'desk', version: '1', providers: [Desk], logger });
    for (const [handlers, code] of [
      [{}, JsonRpcCode.MethodNotFound],
      [
        {
          request: () => {
            throw new JsonRpcError(-32602, 'form elicitations only');
          },
        },
        -32602,
      ],
    ] as const) {
      const [clientSide, serverSide] = createInMemoryPair();
      const wire: string[] = [];
      const recorded: Channel = {
        ...clientSide,
        start: clientSide.start.bind(clientSide),
        close: clientSide.close.bind(clientSide),
        send: (frame) => (wire.push(frame), clientSide.send(frame)),
      };
      server.connect(serverSide);
      const peer = createClientPeer(recorded, handlers);
      await peer.request('initialize', {
        protocolVersion: LATEST_LEGACY,
        capabilities: { elicitation: {} },
        clientInfo,
      });
      peer.notify('notifications/initialized');
      const result = (await peer.request('tools/call', { name: 'greet', arguments: {} })) as any;
      expect(result.isError).toBe(true);
      const answer = wire.map((line) => JSON.parse(line)).find((m) => m.error);
      expect(answer.error.code).toBe(code);
      await peer.close();
    }
    // The tool saw each refusal as the error the peer answered with.
    expect(logged.map((error) => (error as JsonRpcError).code)).toEqual([
      JsonRpcCode.MethodNotFound,
      -32602,
    ]);
  });

  it('waits as long as the answer takes by default; a timeout is an option, and tells the server to stop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const sent: any[] = [];
    let sink: ChannelSink | undefined;
    const channel: Channel = {
      start: (s) => void (sink = s),
      send: (frame) => void sent.push(JSON.parse(frame)),
      close: async () => {},
    };
    const patient = createClientPeer(channel);
    let settled = false;
    void patient.request('tools/call', { name: 'slow' }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).toBe(false);
    sink!.frame(JSON.stringify({ jsonrpc: '2.0', id: sent[0].id, result: { done: true } }));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);

    const impatient = createClientPeer(channel, {}, { timeoutMs: 50 });
    const timedOut = impatient.request('tools/call', { name: 'slow' });
    timedOut.catch(() => {});
    await vi.advanceTimersByTimeAsync(50);
    await expect(timedOut).rejects.toMatchObject({ code: REQUEST_TIMEOUT_CODE });
    expect(sent.at(-1)).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: sent.at(-2).id },
    });
  });

  it('abandon rejects what still waits with the reason', async () => {
    const peer = createClientPeer({ start: () => {}, send: () => {}, close: async () => {} });
    const pending = peer.request('ping', {});
    peer.abandon('the server process exited');
    await expect(pending).rejects.toThrow('the server process exited');
  });
});

describe('@mcp-fw/core/transport: list changes and listen subscriptions', () => {
  it('builds the notifications the server sends, by the filter keys it honours', () => {
    expect(LIST_NAMES).toEqual(['tools', 'prompts', 'resources']);
    expect(listChangedNotification('prompts')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
    });
    expect(listChangedNotification('tools', 7)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    expect(SUBSCRIPTION_ID).toBe('io.modelcontextprotocol/subscriptionId');
    expect(wantsListChanged({ toolsListChanged: true }, 'tools')).toBe(true);
    expect(wantsListChanged({ toolsListChanged: true }, 'resources')).toBe(false);
    expect(wantsListChanged(undefined, 'tools')).toBe(false);
    expect(LOG_LEVELS[0]).toBe('debug');
    expect(LOG_LEVELS.at(-1)).toBe('emergency');
  });
});

describe('@mcp-fw/core/transport: Servable', () => {
  it('puts something other than McpFwServer behind core’s HTTP transport (no guards needed)', async () => {
    const server = createServer({ name: 'desk', version: '1', providers: [Desk] });
    const opened: string[] = [];
    const relay: Servable = {
      connect: (channel, mode) => {
        opened.push(mode ?? 'default');
        return server.connect(channel, mode);
      },
      registry: { tool: (name) => server.registry.tool(name) },
    };
    const handler = createHttpHandler(relay);
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: '127.0.0.1',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: LATEST_LEGACY, capabilities: {}, clientInfo },
        }),
      }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"serverInfo"');
    expect(opened).toEqual(['legacy']);
    await handler.close();
  });
});
