import { z } from 'zod';
import { createServer, Resource, Tool, type Context, type McpFwServer } from '@mcp-fw/core';

/** A small server for the HTTP transport tests. */
class HttpFixture {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ description: 'Reports progress, then answers', input: z.object({ steps: z.number() }) })
  async work({ steps }: { steps: number }, ctx: Context) {
    for (let i = 1; i <= steps; i++) {
      ctx.progress(i, steps);
      ctx.log.info(`step ${i}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return `did ${steps}`;
  }

  @Tool({
    description: 'Waits until told to finish or cancelled',
    input: z.object({ key: z.string() }),
  })
  async wait({ key }: { key: string }, ctx: Context) {
    ctx.progress(1);
    await new Promise<void>((resolve) => {
      gates.set(key, resolve);
      ctx.signal.addEventListener('abort', () => {
        aborted.add(key);
        resolve();
      });
    });
    return `released ${key}`;
  }

  @Tool({ description: 'Asks the user', input: z.object({}) })
  async ask(_: object, ctx: Context) {
    const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
    return answer.action === 'accept' ? `hi ${answer.content.name}` : answer.action;
  }

  @Tool({ description: 'Who is calling', input: z.object({}) })
  whoami(_: object, ctx: Context) {
    return JSON.stringify(ctx.auth ?? null);
  }

  @Resource('mem://note', { mimeType: 'text/plain' })
  note() {
    return 'a note';
  }
}

/** Resolvers of `wait` calls by key, and the keys whose calls were aborted. */
export const gates = new Map<string, () => void>();
export const aborted = new Set<string>();

export function httpFixture(): McpFwServer {
  return createServer({ name: 'http-fixture', version: '1.0.0', providers: [HttpFixture] });
}
