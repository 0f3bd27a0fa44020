import { describe, expect, it } from 'vitest';
import { createServer, StartupError } from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';
import { quickJsSandbox } from '@mcp-fw/codemode';
import { app, seen, Shop } from './support/shop.ts';

// The official clients' test (official-clients.test.ts) covers 2025-11-25 over HTTP.
const ERAS = ['2024-11-05', '2026-07-28'] as const;

const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[]) ?? []).map((b) => b.text ?? '').join('\n');

async function run(c: TestClient, code: string) {
  return c.callTool('run_script', { code });
}

describe.each(ERAS)('code mode (%s)', (era) => {
  it('tools/list shows run_script and the always-visible tool, with typed signatures of the rest', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['run_script', 'whoami']);
    const description = tools.find((t) => t.name === 'run_script')?.description ?? '';
    expect(description).toContain(
      '/** Finds a customer by email */ find_customer(args: { /** Their email address */ email: string }): Promise<{ id: string; name: string }>;',
    );
    expect(description).toContain(
      'refund(args: { order_id: string; reason?: "damaged" | "late" }): Promise<unknown>;',
    );
    expect(description).not.toContain('whoami');
    await c.close();
  });

  it('a three-call script runs in one tool call', async () => {
    seen.length = 0;
    const c = await connectTestClient(app(), { protocolVersion: era });
    const result = await run(
      c,
      `const customer = await tools.find_customer({ email: 'ada@example.com' });
       const { orders } = await tools.list_orders({ customer_id: customer.id });
       const biggest = orders.reduce((a, b) => (a.total >= b.total ? a : b));
       console.log('refunding', biggest.id);
       return { customer: customer.name, refund: await tools.refund({ order_id: biggest.id }) };`,
    );
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual(['find ada@example.com', 'orders c1', 'refund o1']);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
      customer: 'Ada',
      refund: 'refunded o1',
    });
    expect(text(result)).toContain('logged:\nrefunding o1');
    if (era !== '2024-11-05')
      expect(result.structuredContent).toEqual({
        result: { customer: 'Ada', refund: 'refunded o1' },
        logs: ['refunding o1'],
        calls: 3,
      });
    await c.close();
  });

  it("a tool's error rejects in the script, which may catch it; uncaught it is an isError result naming the tool", async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const caught = await run(
      c,
      `try { await tools.refund({ order_id: 'unpaid' }); } catch (e) { return 'caught: ' + e.message; }`,
    );
    expect(text(caught)).toBe('caught: refund: order unpaid was never paid');
    const uncaught = await run(c, `await tools.refund({ order_id: 'unpaid' });`);
    expect(uncaught.isError).toBe(true);
    expect(text(uncaught)).toMatch(
      /^run_script failed: Error: refund: order unpaid was never paid\. Fix the script and run it again\.$/,
    );
    const invalid = await run(c, `return await tools.refund({ order: 1 });`);
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/order_id/);
    const unknown = await run(c, `return await tools.whoami({});`);
    expect(text(unknown)).toMatch(/TypeError: not a function|whoami/);
    await c.close();
  });

  it("a tool's internal failure is masked as a direct call's would be, and ends the script", async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const result = await run(c, `try { await tools.crash({}); } catch { } return 'went on';`);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Internal error \(ref \w+\)/);
    expect(text(result)).not.toContain('hunter2');
    await c.close();
  });
});

describe('code mode sandbox attacks', () => {
  it('reaching process, require, fetch, timers or the host functions finds nothing', async () => {
    const c = await connectTestClient(app());
    const result = await run(
      c,
      `return ['process', 'require', 'fetch', 'setTimeout', 'Buffer', 'globalThis.process', '__host_call', '__host_log', 'module', 'import.meta']
         .map((name) => { try { return name + ':' + typeof eval(name); } catch (e) { return name + ':' + e.name; } });`,
    );
    expect(JSON.parse(text(result))).toEqual([
      'process:ReferenceError',
      'require:ReferenceError',
      'fetch:ReferenceError',
      'setTimeout:ReferenceError',
      'Buffer:ReferenceError',
      'globalThis.process:undefined',
      '__host_call:ReferenceError',
      '__host_log:ReferenceError',
      'module:ReferenceError',
      'import.meta:SyntaxError',
    ]);
    const constructed = await run(
      c,
      `return [await tools.find_customer.constructor('return typeof process')(),
        Function('return typeof globalThis.require')(), typeof this?.process];`,
    );
    expect(JSON.parse(text(constructed))).toEqual(['undefined', 'undefined', 'undefined']);
    const dynamic = await run(c, `await import('node:fs'); return 'imported';`);
    expect(dynamic.isError).toBe(true);
    expect(text(dynamic)).not.toContain('imported');
    await c.close();
  });

  it('prototype pollution stays in the sandbox', async () => {
    const c = await connectTestClient(app());
    const result = await run(
      c,
      `Object.prototype.polluted = 'yes';
       Array.prototype.push = () => 0;
       JSON.parse = () => ({ hacked: true });
       const echoed = await tools.echo(JSON.parse('{"__proto__": {"polluted2": 1}, "constructor": {"prototype": {"polluted3": 1}}}'));
       return { echoed, proto: { '__proto__': { polluted4: 1 } } };`,
    );
    expect(result.isError).toBeFalsy();
    const probe = {} as Record<string, unknown>;
    for (const key of ['polluted', 'polluted2', 'polluted3', 'polluted4', 'hacked'])
      expect(probe[key], key).toBeUndefined();
    expect([1].push(2)).toBe(2);
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
    // A second script starts from a fresh runtime: nothing of the first is left.
    const again = await run(c, 'return [typeof Object.prototype.polluted, [1].push(2)];');
    expect(JSON.parse(text(again))).toEqual(['undefined', 2]);
    await c.close();
  });

  it('an infinite loop stops at the time limit with a clear error', async () => {
    const c = await connectTestClient(app({ timeoutMs: 300 }));
    const started = Date.now();
    const result = await run(c, 'while (true) {}');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'run_script stopped: it ran over the 300 ms limit (tool calls included). Fix: do less per script, and check loops end.',
    );
    // A loop inside a catch-all cannot swallow the interrupt.
    const sly = await run(c, 'for (;;) { try { while (true) {} } catch {} }');
    expect(text(sly)).toMatch(/300 ms limit/);
    await c.close();
  });

  it('a memory bomb stops at the memory limit with a clear error', async () => {
    const c = await connectTestClient(app({ memoryBytes: 8 * 1024 * 1024, timeoutMs: 20_000 }));
    for (const bomb of [
      'const a = []; for (;;) a.push({ n: a.length });',
      'return new ArrayBuffer(1e9).byteLength;',
    ]) {
      const result = await run(c, bomb);
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'run_script stopped: it ran out of memory (limit 8192 KiB). Fix: keep less in memory; return only what you need.',
      );
    }
    const after = await run(c, 'return 1 + 1;');
    expect(text(after)).toBe('2');
    await c.close();
  });

  it('a bomb inside one native call, which QuickJS cannot interrupt, still ends at the time limit', async () => {
    // String.prototype.repeat runs in C without polling the interrupt: the worker thread is
    // ended from outside instead, and the server's own thread never stops answering.
    const c = await connectTestClient(app({ timeoutMs: 500, memoryBytes: 256 * 1024 * 1024 }));
    const started = Date.now();
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(Date.now()), 50);
    const result = await run(c, `const a = []; for (;;) a.push('x'.repeat(1 << 24) + a.length);`);
    clearInterval(ticker);
    expect(text(result)).toMatch(/500 ms limit/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ticks.length).toBeGreaterThan(3);
    await c.close();
  });

  it('a huge output is refused at the output limit, returned or logged', async () => {
    const c = await connectTestClient(app({}, { maxOutputBytes: 1024 }));
    const returned = await run(c, "return 'x'.repeat(5000);");
    expect(returned.isError).toBe(true);
    expect(text(returned)).toMatch(
      /^run_script stopped: the script's output is 5 KiB, over the 1 KiB limit\. Fix: return only/,
    );
    const logged = await run(
      c,
      "for (let i = 0; i < 1e6; i++) console.log('line ' + i); return 1;",
    );
    expect(logged.isError).toBe(true);
    expect(text(logged)).toMatch(/output is over the 1 KiB limit/);
    expect(text(logged).length).toBeLessThan(400);
    await c.close();
  });

  it('the tool-call limit stops a script that calls too often', async () => {
    seen.length = 0;
    const c = await connectTestClient(app({}, { maxCalls: 3 }));
    const result = await run(
      c,
      "for (let i = 0; ; i++) { try { await tools.refund({ order_id: 'o' + i }); } catch {} }",
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'run_script stopped: the script made more than 3 tool calls, the limit. Fix: do the work in fewer calls (batch what the tools allow), or split it over several scripts.',
    );
    expect(seen).toEqual(['refund o0', 'refund o1', 'refund o2']);
    await c.close();
  });

  it('deep recursion, a syntax error and a promise that never settles each fail clearly', async () => {
    const c = await connectTestClient(app());
    const deep = await run(c, 'const f = (n) => f(n + 1) + 1; return f(0);');
    expect(deep.isError).toBe(true);
    expect(text(deep)).toMatch(/^run_script failed: (RangeError|InternalError): .*stack/);
    const syntax = await run(c, 'const x = ;');
    expect(text(syntax)).toMatch(/^run_script failed: SyntaxError: .*line 1/);
    const never = await run(c, 'await new Promise(() => {}); return 1;');
    expect(text(never)).toMatch(/awaits a promise that never settles/);
    await c.close();
  });

  it('scripts running side by side do not see each other', async () => {
    const c = await connectTestClient(app());
    const [a, b] = await Promise.all([
      run(
        c,
        "globalThis.mine = 'a'; await tools.whoami; await tools.find_customer({ email: 'x' }); return globalThis.mine;",
      ),
      run(
        c,
        "globalThis.mine = 'b'; await tools.find_customer({ email: 'y' }); return globalThis.mine;",
      ),
    ]);
    expect([text(a), text(b)]).toEqual(['a', 'b']);
    await c.close();
  });
});

describe('code mode at startup', () => {
  const base = () =>
    createServer({ name: 'shop', version: '1.0.0', providers: [Shop], logger: undefined });

  it('a missing sandbox, an unknown visible tool or a bad limit is a StartupError naming the fix', () => {
    expect(() => base().codeMode({} as never)).toThrow(
      /sandbox is missing\. Fix: .*quickJsSandbox/,
    );
    expect(() =>
      base().codeMode({ sandbox: quickJsSandbox(), alwaysVisible: ['who_am_i'] }),
    ).toThrow(StartupError);
    expect(() => base().codeMode({ sandbox: quickJsSandbox(), maxCalls: 0 })).toThrow(
      /maxCalls must be a positive integer \(got 0\)/,
    );
    expect(() => quickJsSandbox({ timeoutMs: -1 })).toThrow(/timeoutMs must be a positive integer/);
  });

  it('code mode and tool search do not combine', () => {
    expect(() => base().searchTools().codeMode({ sandbox: quickJsSandbox() })).toThrow(
      /already serves its tools through server\.searchTools/,
    );
  });
});
