// Issue #15 parts 2 and 4: a 2026-07-28 `requestState` is bound to the call and caller it was
// issued for and answered once; a retry answers only what its round asked; and the calls
// waiting in memory for a client's input are capped per client and per server.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
// A namespace import: on a core without MemoryUsedRounds only the test using it fails.
import * as core from '@mcp-fw/core';
import {
  createServer,
  Prompt,
  Resource,
  Tool,
  type Context,
  type McpFwServer,
  type UsedRounds,
} from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { nodeSurface, type Surface } from './support/http-surfaces.ts';
import { modernHeaders } from './support/security-http.ts';
import { mcpSchema } from './support/mcp-schema.ts';
import { checkServerLines } from './support/wire-log.ts';

const MODERN = '2026-07-28';
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const KEY = 's'.repeat(32);
const schema = mcpSchema(MODERN);
const _meta = { [V]: MODERN, [CAPS]: { elicitation: {} } };
const yes = { action: 'accept', content: { ok: true } };
const Confirm = z.object({ ok: z.boolean() });

class Shop {
  readonly runs = { pay: 0, refund: 0, twice: 0, prompt: 0, receipt: 0 };

  @Tool({
    description: 'Pays once confirmed',
    input: z.object({ amount: z.number(), currency: z.string() }),
  })
  async pay({ amount, currency }: { amount: number; currency: string }, ctx: Context) {
    this.runs.pay++;
    const answer = await ctx.elicit(`Pay ${amount} ${currency}?`, Confirm, { key: 'confirm' });
    return answer.action === 'accept' && answer.content.ok
      ? `paid ${amount} ${currency}`
      : 'not paid';
  }

  @Tool({
    description: 'Refunds once confirmed (asks under the same key as pay)',
    input: z.object({ amount: z.number(), currency: z.string() }),
  })
  async refund({ amount }: { amount: number }, ctx: Context) {
    this.runs.refund++;
    const answer = await ctx.elicit(`Refund ${amount}?`, Confirm, { key: 'confirm' });
    return answer.action === 'accept' ? `refunded ${amount}` : 'kept';
  }

  @Tool({ description: 'Asks twice in sequence', input: z.object({}) })
  async twice(_: object, ctx: Context) {
    this.runs.twice++;
    const first = await ctx.elicit('First?', z.object({ a: z.string() }));
    const second = await ctx.elicit('Second?', z.object({ b: z.string() }));
    return `${first.action === 'accept' ? first.content.a : '-'}+${second.action === 'accept' ? second.content.b : '-'}`;
  }

  @Tool({ description: 'Greets, then asks to confirm', input: z.object({}) })
  async greet(_: object, ctx: Context) {
    const name = await ctx.elicit('Name?', z.object({ name: z.string() }), {
      key: 'user_name',
      acceptUnasked: true,
    });
    const ok = await ctx.elicit('Send the greeting?', Confirm, { key: 'confirm' });
    return `${name.action === 'accept' ? name.content.name : '-'}:${ok.action}`;
  }

  @Prompt({ description: 'Asks under the same key as pay', input: z.object({}) })
  async confirmed(_: object, ctx: Context) {
    this.runs.prompt++;
    await ctx.elicit('Confirm?', Confirm, { key: 'confirm' });
    return 'confirmed';
  }

  @Resource('shop://receipt', { description: 'A receipt, once confirmed', mimeType: 'text/plain' })
  async receipt(_: object, ctx: Context) {
    this.runs.receipt++;
    await ctx.elicit('Confirm?', Confirm, { key: 'confirm' });
    return 'receipt';
  }
}

const shopServer = (shop: Shop, usedRounds?: UsedRounds) =>
  createServer({
    name: 'shop',
    version: '1.0.0',
    providers: [shop],
    inputRounds: { requestStateKey: KEY, usedRounds },
  });

const clients: TestClient[] = [];
const surfaces: Surface[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await Promise.all(surfaces.splice(0).map((s) => s.close()));
});

async function client(server: McpFwServer): Promise<TestClient> {
  const c = await connectTestClient(server, {
    protocolVersion: MODERN,
    capabilities: { elicitation: {} },
  });
  clients.push(c);
  return c;
}

/** The fields of a 2026-07-28 result these tests read. */
type ModernResult = {
  resultType: string;
  inputRequests: Record<string, unknown>;
  requestState: string;
  content: { type: string; text: string }[];
};

const call = (c: TestClient, method: string, params: Record<string, unknown>) =>
  c.rawRequest<ModernResult>(method, { ...params, _meta });
const pay = (
  c: TestClient,
  extra: Record<string, unknown> = {},
  args: Record<string, unknown> = { amount: 5, currency: 'EUR' },
) => call(c, 'tools/call', { name: 'pay', arguments: args, ...extra });

describe('2026-07-28 requestState is bound to its call', () => {
  it("one tool's requestState is refused by another tool's call (and by a prompt, a resource, other arguments)", async () => {
    const shop = new Shop();
    const c = await client(shopServer(shop));
    const round1 = await pay(c);
    expect(round1).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    });
    const answer = { inputResponses: { confirm: yes }, requestState: round1.requestState };

    await expect(
      call(c, 'tools/call', {
        name: 'refund',
        arguments: { amount: 5, currency: 'EUR' },
        ...answer,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params: requestState was issued for tools/call of tool "pay", not tools/call of tool "refund"; a retry repeats the original call, or starts a new call without requestState',
    });
    await expect(
      call(c, 'prompts/get', { name: 'confirmed', arguments: {}, ...answer }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'requestState was issued for tools/call of tool "pay", not prompts/get of prompt "confirmed"',
      ),
    });
    await expect(
      call(c, 'resources/read', { uri: 'shop://receipt', ...answer }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('not resources/read of resource "shop://receipt"'),
    });
    await expect(pay(c, answer, { amount: 5000, currency: 'EUR' })).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params: requestState was issued for tools/call of tool "pay" with other arguments; a retry must repeat the original arguments',
    });
    // None of the refused retries ran a handler or used up the round: the real retry (the same
    // arguments, keys in another order) resumes the waiting handler.
    expect(shop.runs).toEqual({ pay: 1, refund: 0, twice: 0, prompt: 0, receipt: 0 });
    expect(await pay(c, answer, { currency: 'EUR', amount: 5 })).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'paid 5 EUR' }],
    });
    expect(shop.runs.pay).toBe(1);
    expect(checkServerLines(c.wire, MODERN)).toEqual([]);
  });

  it('a retry is refused when the caller is not the one the round was issued to (over HTTP)', async () => {
    const shop = new Shop();
    const s = await nodeSurface(shopServer(shop), {
      authenticate: (req) => ({
        auth: { sub: (req.header('authorization') ?? '').replace('Bearer ', '') },
      }),
    });
    surfaces.push(s);
    const post = async (user: string, id: number, extra: Record<string, unknown> = {}) => {
      const res = await s.send({
        method: 'POST',
        path: '/mcp',
        headers: modernHeaders('tools/call', 'pay', { authorization: `Bearer ${user}` }),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'pay', arguments: { amount: 7, currency: 'EUR' }, _meta, ...extra },
        }),
      });
      return { status: res.status, body: JSON.parse(await res.text()) };
    };
    const round1 = await post('alice', 1);
    expect(round1.body.result.resultType).toBe('input_required');
    expect(schema.check(round1.body, 'tools/call')).toEqual([]);
    const answer = {
      inputResponses: { confirm: yes },
      requestState: round1.body.result.requestState,
    };
    // The state is signed, not encrypted: it binds the caller by a digest, never in clear.
    expect(Buffer.from(answer.requestState.split('.')[0], 'base64url').toString()).not.toContain(
      'alice',
    );
    const stolen = await post('mallory', 2, answer);
    expect(stolen.body.error).toEqual({
      code: -32602,
      message:
        'Invalid params: requestState was issued to another caller; only the caller it was issued to can answer its round',
    });
    expect(schema.check(stolen.body)).toEqual([]);
    const own = await post('alice', 3, answer);
    expect(own.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'paid 7 EUR' }],
    });
    expect(shop.runs.pay).toBe(1);
  });
});

describe('2026-07-28 input rounds are answered once', () => {
  it('an answered round replayed (same requestState and inputResponses) is refused, and the handler is not re-run', async () => {
    const shop = new Shop();
    const c = await client(shopServer(shop));
    const round1 = await pay(c);
    const retry = { inputResponses: { confirm: yes }, requestState: round1.requestState };
    expect(await pay(c, retry)).toMatchObject({ content: [{ text: 'paid 5 EUR' }] });
    await expect(pay(c, retry)).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params: round 1 of this call was already answered; each requestState is answered once (start the call again for a new one)',
    });
    expect(shop.runs.pay).toBe(1);

    // Replayed on another instance sharing the key (no live handler there): served once, then refused.
    const other = new Shop();
    const c2 = await client(shopServer(other));
    const fresh = await pay(c);
    const replay = { inputResponses: { confirm: yes }, requestState: fresh.requestState };
    expect(await pay(c2, replay)).toMatchObject({ content: [{ text: 'paid 5 EUR' }] });
    await expect(pay(c2, replay)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('already answered'),
    });
    expect(other.runs.pay).toBe(1);
    for (const w of [c, c2]) expect(checkServerLines(w.wire, MODERN)).toEqual([]);
  });

  it('instances sharing an asynchronous UsedRounds store refuse a round answered on the other one', async () => {
    const used = new Map<string, number>();
    const store: UsedRounds = {
      markUsed: async (id, expiresAt) => {
        await new Promise((r) => setTimeout(r, 1));
        if (used.has(id)) return false;
        used.set(id, expiresAt);
        return true;
      },
    };
    const [shopA, shopB] = [new Shop(), new Shop()];
    const a = await client(shopServer(shopA, store));
    const b = await client(shopServer(shopB, store));
    const round1 = await pay(a); // its handler waits on instance A
    const retry = { inputResponses: { confirm: yes }, requestState: round1.requestState };
    expect(await pay(b, retry)).toMatchObject({ content: [{ text: 'paid 5 EUR' }] });
    // The same answer sent to A, where the handler still waits: refused, not resumed.
    await expect(pay(a, retry)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('already answered'),
    });
    expect([shopA.runs.pay, shopB.runs.pay]).toEqual([1, 1]);
    expect([...used.values()].every((at) => at > Date.now())).toBe(true);
  });

  it('a retry with missing answers is asked again under a new round, which is answered once too', async () => {
    const shop = new Shop();
    const c = await client(shopServer(shop));
    // No arguments at first, `{}` in the retries: the same call.
    const round1 = await call(c, 'tools/call', { name: 'twice' });
    const again = await call(c, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: {},
      requestState: round1.requestState,
    });
    expect(Object.keys(again.inputRequests)).toEqual(['input_1']);
    const round2 = await call(c, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: { input_1: { action: 'accept', content: { a: 'A' } } },
      requestState: again.requestState,
    });
    expect(Object.keys(round2.inputRequests)).toEqual(['input_2']);
    const done = await call(c, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: { input_2: { action: 'accept', content: { b: 'B' } } },
      requestState: round2.requestState,
    });
    expect(done.content[0].text).toBe('A+B');
    await expect(
      call(c, 'tools/call', {
        name: 'twice',
        arguments: {},
        inputResponses: {},
        requestState: round1.requestState,
      }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    expect(shop.runs.twice).toBe(1);
  });

  it('MemoryUsedRounds keeps each round until it expires, and refuses (naming the limit) when full', () => {
    const rounds = new core.MemoryUsedRounds(2);
    expect(rounds.markUsed('r.1', 1_000, undefined, 0)).toBe(true);
    expect(rounds.markUsed('r.1', 1_000, undefined, 10)).toBe(false);
    expect(rounds.markUsed('r.2', 2_000, undefined, 20)).toBe(true);
    expect(() => rounds.markUsed('r.3', 3_000, undefined, 30)).toThrow(
      'This server remembers 2 answered input rounds (limits.inputRounds.maxAnswered) and none has expired yet; try again shortly.',
    );
    // Once r.1 has expired (its state is refused as expired anyway) the record has room again.
    expect(rounds.markUsed('r.3', 3_000, undefined, 1_500)).toBe(true);
    expect(rounds.size).toBe(2);
  });

  it('MemoryUsedRounds refuses a client past maxAnsweredPerClient until its oldest round expires; other clients keep their share', () => {
    const rounds = new core.MemoryUsedRounds(10);
    const ada = { client: 'identity:ada', maxAnswered: 10, maxAnsweredPerClient: 2 };
    const bob = { ...ada, client: 'identity:bob' };
    expect(rounds.markUsed('a.1', 1_000, ada, 0)).toBe(true);
    expect(rounds.markUsed('a.2', 2_000, ada, 100)).toBe(true);
    expect(rounds.markUsed('a.3', 3_000, ada, 200)).toEqual({
      limit: 'maxAnsweredPerClient',
      retryAfterMs: 800,
    });
    expect(rounds.markUsed('b.1', 3_000, bob, 200)).toBe(true);
    // a.1 expired: ada has room again, and the refused a.3 was never recorded.
    expect(rounds.markUsed('a.3', 3_000, ada, 1_000)).toBe(true);
    expect(rounds.size).toBe(3);
  });
});

describe('2026-07-28 answers to questions never asked', () => {
  it('inputResponses for questions never asked are refused with -32602 naming the unexpected key', async () => {
    const shop = new Shop();
    const c = await client(shopServer(shop));
    const round1 = await call(c, 'tools/call', { name: 'twice', arguments: {} });
    expect(Object.keys(round1.inputRequests)).toEqual(['input_1']);
    const a = { action: 'accept', content: { a: 'A' } };
    const b = { action: 'accept', content: { b: 'B' } };
    // Answering round 2's question before it was asked (skipping it): refused.
    await expect(
      call(c, 'tools/call', {
        name: 'twice',
        arguments: {},
        inputResponses: { input_1: a, input_2: b },
        requestState: round1.requestState,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params: inputResponses answers "input_2", which this round did not ask (it asked "input_1")',
    });
    await expect(
      call(c, 'tools/call', {
        name: 'twice',
        arguments: {},
        inputResponses: { ['x'.repeat(500)]: a },
        requestState: round1.requestState,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/answers "x{63}…", which this round did not ask/),
    });
    // Refusals used nothing up: the proper answer continues, and round 2 asks its question.
    const round2 = await call(c, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: { input_1: a },
      requestState: round1.requestState,
    });
    expect(Object.keys(round2.inputRequests)).toEqual(['input_2']);
    expect(shop.runs.twice).toBe(1);
    expect(checkServerLines(c.wire, MODERN)).toEqual([]);
  });

  // Issue #30, row 11: the pre-answer was used, so ctx.elicit() returned it and no round happened.
  it('tools/call with inputResponses for a question never asked and no requestState: the answer is ignored and the question is asked', async () => {
    const shop = new Shop();
    const c = await client(shopServer(shop));
    const forged = await pay(c, { inputResponses: { confirm: yes } });
    expect(forged.resultType).toBe('input_required');
    expect(Object.keys(forged.inputRequests)).toEqual(['confirm']);
    // The same through a prompt and a resource, and for a later round's question.
    const prompt = await call(c, 'prompts/get', {
      name: 'confirmed',
      arguments: {},
      inputResponses: { confirm: yes },
    });
    expect(prompt.resultType).toBe('input_required');
    const read = await call(c, 'resources/read', {
      uri: 'shop://receipt',
      inputResponses: { confirm: yes },
    });
    expect(read.resultType).toBe('input_required');
    const a = { action: 'accept', content: { a: 'A' } };
    const b = { action: 'accept', content: { b: 'pre-answered' } };
    const first = await call(c, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: { input_1: a, input_2: b },
    });
    expect(Object.keys(first.inputRequests)).toEqual(['input_1']);
    // Not even as a malformed value is it looked at (no -32602: extra parameters are ignored).
    const odd = await pay(c, { inputResponses: 'yes' });
    expect(odd.resultType).toBe('input_required');
    // Answered through the state the server issued, the call completes as before.
    const paid = await pay(c, {
      inputResponses: { confirm: yes },
      requestState: forged.requestState,
    });
    expect(paid.content[0].text).toBe('paid 5 EUR');
    expect(checkServerLines(c.wire, MODERN)).toEqual([]);
  });

  it('a question asked with acceptUnasked takes an answer sent with the call, in the first round only', async () => {
    const c = await client(shopServer(new Shop()));
    const name = { action: 'accept', content: { name: 'Ada' } };
    const round = await call(c, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { user_name: name, confirm: yes },
    });
    // The name was taken; the confirmation, asked without the opt-in, is still asked.
    expect(Object.keys(round.inputRequests)).toEqual(['confirm']);
    const done = await call(c, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { confirm: yes },
      requestState: round.requestState,
    });
    expect(done.content[0].text).toBe('Ada:accept');
  });
});

describe('2026-07-28 input rounds waiting in memory are capped', () => {
  class Asker {
    @Tool({ description: 'Asks for a name', input: z.object({}) })
    async ask(_: object, ctx: Context) {
      const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
      return answer.action === 'accept' ? `hello ${answer.content.name}` : 'nobody';
    }
  }

  async function capped(
    limits: { maxWaiting?: number; maxWaitingPerClient?: number },
    roundTimeoutMs?: number,
  ) {
    const server = createServer({
      name: 'ask',
      version: '1',
      providers: [Asker],
      limits: { inputRounds: limits },
      inputRounds: { roundTimeoutMs },
    });
    const s = await nodeSurface(server, {
      authenticate: (req) => ({ auth: { sub: req.header('authorization') ?? 'nobody' } }),
    });
    surfaces.push(s);
    let id = 0;
    return async (user: string, extra: Record<string, unknown> = {}) => {
      const res = await s.send({
        method: 'POST',
        path: '/mcp',
        headers: modernHeaders('tools/call', 'ask', { authorization: user }),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method: 'tools/call',
          params: { name: 'ask', arguments: {}, _meta, ...extra },
        }),
      });
      const body = JSON.parse(await res.text());
      expect(schema.check(body, 'tools/call')).toEqual([]);
      return body.result;
    };
  }

  it('a client holding maxWaitingPerClient rounds is refused another, naming the limit; other clients are unaffected', async () => {
    const ask = await capped({ maxWaitingPerClient: 2 });
    const first = await ask('alice');
    expect((await ask('alice')).resultType).toBe('input_required');
    expect(await ask('alice')).toEqual({
      content: [
        {
          type: 'text',
          text: 'This client already has 2 calls waiting for its input (limits.inputRounds.maxWaitingPerClient); answer or abandon one first.',
        },
      ],
      isError: true,
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ask', version: '1' } },
    });
    expect((await ask('bob')).resultType).toBe('input_required');
    // Answering one frees alice's slot.
    const done = await ask('alice', {
      inputResponses: { input_1: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    });
    expect(done.content[0].text).toBe('hello Ada');
    expect((await ask('alice')).resultType).toBe('input_required');
  });

  it('the server refuses a round past maxWaiting, and a round that expires frees its place', async () => {
    const ask = await capped({ maxWaiting: 2 }, 300);
    expect((await ask('alice')).resultType).toBe('input_required');
    expect((await ask('bob')).resultType).toBe('input_required');
    expect((await ask('carol')).content[0].text).toBe(
      'This server has 2 calls waiting for input (limits.inputRounds.maxWaiting); try again shortly.',
    );
    await new Promise((r) => setTimeout(r, 400));
    expect((await ask('carol')).resultType).toBe('input_required');
  });

  it('refuses bad inputRounds limits at startup', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        providers: [],
        limits: { inputRounds: { maxWaitingPerClient: 0 } },
      }),
    ).toThrow('limits: inputRounds.maxWaitingPerClient must be an integer ≥ 1, got 0.');
  });
});
