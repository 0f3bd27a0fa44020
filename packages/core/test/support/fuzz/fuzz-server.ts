import { z } from 'zod';
import {
  createServer,
  Prompt,
  Resource,
  Tool,
  UserError,
  type Context,
  type Logger,
  type McpFwServer,
} from '@mcp-fw/core';

/** Logged internal errors are expected under fuzzing (a tool that throws); kept, not printed. */
export const quietLogger: Logger & { readonly errors: string[] } = {
  errors: [],
  error(message) {
    if (this.errors.length < 100) this.errors.push(message);
  },
  warn() {},
};

class FuzzTools {
  @Tool({ description: 'Echoes text', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({
    description: 'Structured',
    input: z.object({ n: z.number().int().min(0).max(5) }),
    output: z.object({ n: z.number() }),
  })
  structured({ n }: { n: number }) {
    return { n };
  }

  @Tool({ description: 'Runs until stopped', input: z.object({}), timeoutMs: 20 })
  hang(_: object, ctx: Context) {
    return new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
    );
  }

  @Tool({ description: 'Throws', input: z.object({ user: z.boolean().optional() }) })
  boom({ user }: { user?: boolean }) {
    throw user ? new UserError('user-facing failure') : new Error('kaboom');
  }

  @Tool({ description: 'Rate limited', input: z.object({}), rateLimit: { max: 2, perMs: 60_000 } })
  limited() {
    return 'ok';
  }

  @Tool({ description: 'Asks for a name', input: z.object({}) })
  async ask(_: object, ctx: Context) {
    const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
    return answer.action === 'accept' ? `Hello, ${answer.content.name}` : answer.action;
  }

  @Tool({
    description: 'Reports progress and logs',
    input: z.object({ steps: z.number().int().min(0).max(3) }),
  })
  async progress({ steps }: { steps: number }, ctx: Context) {
    for (let i = 1; i <= steps; i++) {
      ctx.progress(i, steps, `step ${i}`);
      ctx.log.info(`step ${i}`);
      await new Promise((r) => setImmediate(r));
    }
    return 'done';
  }

  @Tool({
    description: 'Returns n characters',
    input: z.object({ n: z.number().int().min(0).max(5000) }),
  })
  big({ n }: { n: number }) {
    return 'x'.repeat(n);
  }

  @Tool({ description: 'Returns control characters', input: z.object({}) })
  ctrl() {
    return '\u001b[2J\u0000\u202e';
  }

  @Resource('fuzz://readme', { mimeType: 'text/plain' })
  readme() {
    return 'Fuzz me.';
  }

  @Resource('fuzz://items/{id}', { mimeType: 'application/json', complete: { id: ['1', '2'] } })
  item({ id }: { id: string }) {
    return { id };
  }

  @Prompt({
    description: 'About a topic',
    input: z.object({ topic: z.string() }),
    complete: { topic: ['cats', 'cars'] },
  })
  about({ topic }: { topic: string }) {
    return `Tell me about ${topic}.`;
  }
}

export const TOOL_NAMES = [
  'echo',
  'structured',
  'hang',
  'boom',
  'limited',
  'ask',
  'progress',
  'big',
  'ctrl',
];

/** The server every fuzz run talks to: every feature, with guardrails on and short timers. */
export function fuzzServer(): McpFwServer {
  return createServer({
    name: 'fuzz',
    version: '1.0.0',
    providers: [FuzzTools],
    logger: quietLogger,
    clientRequestTimeoutMs: 30,
    inputRounds: { roundTimeoutMs: 5_000, maxParked: 8 },
    limits: { maxResultBytes: 2000, timeoutMs: 1000, concurrency: { perSession: 4, maxQueued: 4 } },
    audit: { sink: () => {} },
  });
}
