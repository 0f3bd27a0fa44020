import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import type { Channel, ChannelSink } from '../src/jsonrpc/index.ts';

// Under 2026-07-28 a tools/call runs inside an input run whose signal is built only when read
// (a per-call cost otherwise). These pin down that reading it early, late, or only after an
// input round gives the same aborts as a signal that followed the request from the start.

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const seen: string[] = [];
let open!: () => void;
const gate = () => new Promise<void>((resolve) => (open = resolve));
const describeSignal = (signal: AbortSignal) =>
  `aborted=${signal.aborted} reason=${String(signal.reason)}`;

class Waiting {
  @Tool({ description: 'Listens to ctx.signal from the start', input: z.object({}) })
  async early(_: object, ctx: Context) {
    ctx.signal.addEventListener('abort', () =>
      seen.push(`early heard ${String(ctx.signal.reason)}`),
    );
    await gate();
    seen.push(`early ${describeSignal(ctx.signal)}`);
    return 'done';
  }

  @Tool({ description: 'Reads ctx.signal only at the end', input: z.object({}) })
  async late(_: object, ctx: Context) {
    await gate();
    seen.push(`late ${describeSignal(ctx.signal)}`);
    return 'done';
  }

  @Tool({ description: 'Asks, then reads ctx.signal at the end', input: z.object({}) })
  async asks(_: object, ctx: Context) {
    await ctx.elicit('Name?', z.object({ name: z.string() }));
    await gate();
    seen.push(`asks ${describeSignal(ctx.signal)}`);
    return 'done';
  }
}

function connectRaw() {
  let sink!: ChannelSink;
  const sent: any[] = [];
  const channel: Channel = {
    start: (s) => (sink = s),
    send: (frame) => void sent.push(JSON.parse(frame)),
    close: async () => {},
  };
  createServer({ name: 'signals', version: '1.0.0', providers: [Waiting] }).connect(channel);
  const send = (message: object) => sink.frame(JSON.stringify({ jsonrpc: '2.0', ...message }));
  const call = (id: number, name: string, extra: object = {}) =>
    send({ id, method: 'tools/call', params: { name, arguments: {}, ...extra, _meta: ENVELOPE } });
  const cancel = (requestId: number) =>
    send({ method: 'notifications/cancelled', params: { requestId, reason: `stop ${requestId}` } });
  return { sent, call, cancel };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('2026-07-28: the signal of a call that may ask for input', () => {
  it('aborts with the cancel when read before it, and is aborted when read after it', async () => {
    seen.length = 0;
    const c = connectRaw();
    c.call(1, 'early');
    await settle();
    c.cancel(1);
    open();
    await settle();
    c.call(2, 'late');
    await settle();
    c.cancel(2);
    open();
    await settle();
    expect(seen).toEqual([
      'early heard stop 1',
      'early aborted=true reason=stop 1',
      'late aborted=true reason=stop 2',
    ]);
    expect(c.sent).toEqual([]);
  });

  it('follows the retry that resumed the handler, and is not aborted when nothing was cancelled', async () => {
    seen.length = 0;
    const c = connectRaw();
    c.call(1, 'asks');
    await settle();
    const interim = c.sent.shift().result;
    expect(interim.resultType).toBe('input_required');
    const [key] = Object.keys(interim.inputRequests);
    const retry = {
      inputResponses: { [key]: { action: 'accept', content: { name: 'n' } } },
      requestState: interim.requestState,
    };
    c.call(2, 'asks', retry);
    await settle();
    c.cancel(2);
    open();
    await settle();
    c.call(3, 'late');
    await settle();
    open();
    await settle();
    expect(seen).toEqual([
      'asks aborted=true reason=stop 2',
      'late aborted=false reason=undefined',
    ]);
    expect(c.sent.map((m) => m.id)).toEqual([3]);
  });
});
