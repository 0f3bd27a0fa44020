import { createServer, Prompt, Resource, Tool, type Context, type McpFwServer } from '@mcp-fw/core';
import { z } from 'zod';

// One mcp-fw server with a member for each call the client makes, built inline per test file.

const Operands = z.object({ a: z.number(), b: z.number() });
const Sum = z.object({ sum: z.number(), detail: z.object({ expression: z.string() }) });

/** What the `slow` tool saw: whether it was aborted, and why. */
export const seen = { aborted: [] as string[] };

class Desk {
  @Tool({ description: 'Adds two numbers', input: Operands, output: Sum })
  add({ a, b }: z.infer<typeof Operands>) {
    return { sum: a + b, detail: { expression: `${a} + ${b}` } };
  }

  @Tool({
    description: 'Reports progress, then waits until cancelled or `ms` passed',
    input: z.object({ ms: z.number() }),
  })
  async slow({ ms }: { ms: number }, ctx: Context) {
    ctx.progress(1, 3, 'started');
    ctx.progress(2, 3);
    const aborted = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (aborted) seen.aborted.push(String(ctx.signal.reason));
    ctx.progress(3, 3, 'done');
    return aborted ? 'aborted' : 'finished';
  }

  @Tool({ description: 'Asks the user for a name', input: z.object({}) })
  async greet(_: object, ctx: Context) {
    const answer = await ctx.elicit(
      'Your name?',
      z.object({ name: z.string(), title: z.string().default('Dr') }),
    );
    return answer.action === 'accept'
      ? `Hello ${answer.content.title} ${answer.content.name}`
      : `no answer: ${answer.action}`;
  }

  @Tool({ description: 'Asks the model, then lists the roots', input: z.object({}) })
  async ponder(_: object, ctx: Context) {
    const sampled = await ctx.sample('Say something');
    const roots = await ctx.roots();
    const [first] = Array.isArray(sampled.content) ? sampled.content : [sampled.content];
    const text = first?.type === 'text' ? first.text : first?.type;
    return `${text} / ${roots.map((r) => r.uri).join(',')}`;
  }

  @Resource('memo://today', { name: 'today', description: 'Today’s memo', mimeType: 'text/plain' })
  today() {
    return 'Nothing planned.';
  }

  @Resource('memo://notes/{day}', {
    name: 'note',
    description: 'The note of a day',
    mimeType: 'text/plain',
  })
  note({ day }: { day: string }) {
    return `Note of ${day}`;
  }

  @Prompt({
    description: 'Explains code',
    input: z.object({ language: z.string() }),
    complete: { language: ['typescript', 'python', 'rust'] },
  })
  explain({ language }: { language: string }) {
    return `Explain this ${language}`;
  }
}

/** Filler tools, so that pages of `pageSize` have something to page through. */
class Filler {
  @Tool({ description: 'Filler one', input: z.object({}) })
  one() {
    return '1';
  }
  @Tool({ description: 'Filler two', input: z.object({}) })
  two() {
    return '2';
  }
  @Tool({ description: 'Filler three', input: z.object({}) })
  three() {
    return '3';
  }
}

export function fixtureServer(options: { pageSize?: number } = {}): McpFwServer {
  return createServer({
    name: 'fixture',
    version: '1.2.3',
    instructions: 'A desk for the client tests.',
    providers: [Desk, Filler],
    pageSize: options.pageSize,
  });
}
