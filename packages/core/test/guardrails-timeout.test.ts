import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, Tool, type Context } from '@mcp-fw/core';
import {
  CLIENT_MODES,
  listen,
  officialClient,
  textOf,
  withoutMeta,
} from './support/guard-clients.ts';

let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const Empty = z.object({});

/** Resolves never; rejects with the signal's reason when it aborts (what a well-behaved handler does). */
function untilAborted(signal: AbortSignal, seen: string[]): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => {
      seen.push((signal.reason as Error).message);
      reject(signal.reason);
    }),
  );
}

class Slow {
  readonly aborted: string[] = [];

  @Tool({ description: 'Runs until stopped', input: Empty, timeoutMs: 50 })
  hang(_: object, ctx: Context) {
    return untilAborted(ctx.signal, this.aborted);
  }

  @Tool({ description: 'Runs until stopped, under the server default', input: Empty })
  hangDefault(_: object, ctx: Context) {
    return untilAborted(ctx.signal, this.aborted);
  }

  @Tool({ description: 'Takes 30 ms; no timeout of its own', input: Empty, timeoutMs: 0 })
  async unlimited() {
    await new Promise((r) => setTimeout(r, 30));
    return 'finished';
  }

  @Tool({ description: 'Asks, then answers', input: Empty, timeoutMs: 150 })
  async askSlowly(_: object, ctx: Context) {
    const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
    return `Hello, ${answer.content?.name}`;
  }

  @Resource('slow://resource', { mimeType: 'text/plain', timeoutMs: 50 })
  resource(_: object, ctx: Context) {
    return untilAborted(ctx.signal, this.aborted);
  }

  @Prompt({ description: 'Never renders', input: Empty, timeoutMs: 50 })
  prompt(_: object, ctx: Context) {
    return untilAborted(ctx.signal, this.aborted);
  }
}

const timedOut = (what: string, ms: number) =>
  `${what} timed out after ${ms} ms (timeoutMs) and was stopped.`;

describe.each(CLIENT_MODES)('timeouts through the official client (%s, %s)', (mode) => {
  async function start(onElicit?: (params: any) => unknown) {
    const slow = new Slow();
    const http = await listen(
      createServer({
        name: 'slow',
        version: '1.0.0',
        providers: [slow],
        limits: { timeoutMs: 40 },
      }),
    );
    cleanups.push(() => http.close());
    const { client, close } = await officialClient(http.url, mode, { onElicit });
    cleanups.push(close);
    return { slow, client };
  }

  it('aborts ctx.signal and answers an isError result naming the limit', async () => {
    const { slow, client } = await start();
    expect(withoutMeta(await client.callTool({ name: 'hang', arguments: {} }))).toEqual({
      content: [{ type: 'text', text: timedOut('Tool hang', 50) }],
      isError: true,
    });
    expect(textOf(await client.callTool({ name: 'hangDefault', arguments: {} }))).toBe(
      timedOut('Tool hangDefault', 40),
    );
    expect(textOf(await client.callTool({ name: 'unlimited', arguments: {} }))).toBe('finished');
    expect(slow.aborted).toEqual([timedOut('Tool hang', 50), timedOut('Tool hangDefault', 40)]);
  });

  it('times out resource reads and prompts with an error naming the limit', async () => {
    const { slow, client } = await start();
    await expect(client.readResource({ uri: 'slow://resource' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining(timedOut('Resource slow://resource', 50)),
    });
    await expect(client.getPrompt({ name: 'prompt', arguments: {} })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining(timedOut('Prompt prompt', 50)),
    });
    expect(slow.aborted).toEqual([
      timedOut('Resource slow://resource', 50),
      timedOut('Prompt prompt', 50),
    ]);
  });

  it('covers the whole call, including the wait for the client to answer a question', async () => {
    const { client } = await start(async () => {
      // Under 2026-07-28 the question is an input_required round; the retry comes too late.
      await new Promise((r) => setTimeout(r, 400));
      return { action: 'accept', content: { name: 'Ada' } };
    });
    expect(textOf(await client.callTool({ name: 'askSlowly', arguments: {} }))).toBe(
      timedOut('Tool askSlowly', 150),
    );
  });
});
