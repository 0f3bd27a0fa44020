import { createServer, Prompt, Resource, Tool, type Context, type McpFwServer } from '@mcp-fw/core';
import { z } from 'zod';

// An upstream server in this process with a member for each thing the proxy forwards, and a
// record of what it saw (cancellations, sessions), built fresh per test.

export interface Seen {
  aborted: string[];
  calls: number;
}

export function upstreamServer(seen: Seen = { aborted: [], calls: 0 }): McpFwServer {
  class Desk {
    @Tool({
      description: 'Adds two numbers',
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
    })
    add({ a, b }: { a: number; b: number }) {
      seen.calls++;
      return { sum: a + b };
    }

    @Tool({ description: 'Counts the calls of this session', input: z.object({}) })
    async count(_: object, ctx: Context) {
      const n = ((await ctx.state.get<number>('n')) ?? 0) + 1;
      await ctx.state.set('n', n);
      return String(n);
    }

    @Tool({
      description: 'Waits `ms`, reporting progress, unless cancelled',
      input: z.object({ ms: z.number() }),
    })
    async slow({ ms }: { ms: number }, ctx: Context) {
      ctx.progress(1, 2, 'started');
      const aborted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (aborted) seen.aborted.push(String(ctx.signal.reason));
      ctx.progress(2, 2, 'done');
      return aborted ? 'aborted' : 'finished';
    }

    @Tool({ description: 'Asks the user for a name', input: z.object({}) })
    async greet(_: object, ctx: Context) {
      const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }));
      return answer.action === 'accept'
        ? `Hello ${answer.content.name}`
        : `no answer: ${answer.action}`;
    }

    @Tool({ description: 'Asks for a signature under a key of its own', input: z.object({}) })
    async sign(_: object, ctx: Context) {
      const answer = await ctx.elicit('Sign here', z.object({ name: z.string() }), {
        key: 'signature',
      });
      return answer.action === 'accept' ? `Signed by ${answer.content.name}` : answer.action;
    }

    @Tool({ description: 'Names the input capabilities its client declared', input: z.object({}) })
    capabilities(_: object, ctx: Context) {
      const declared = ctx.client.capabilities as Record<string, unknown>;
      return ['elicitation', 'sampling', 'roots']
        .filter((c) => declared[c] !== undefined)
        .join(',');
    }

    @Tool({ description: 'Asks the model, then lists the roots', input: z.object({}) })
    async ponder(_: object, ctx: Context) {
      const sampled = await ctx.sample('Say something');
      const roots = await ctx.roots();
      const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
      return `${content?.type === 'text' ? content.text : '?'} / ${roots.map((r) => r.uri).join(',')}`;
    }

    @Tool({ description: 'Logs `n` messages', input: z.object({ n: z.number() }) })
    chatty({ n }: { n: number }, ctx: Context) {
      for (let i = 0; i < n; i++) ctx.log.info(`message ${i}`);
      return 'logged';
    }

    @Resource('memo://today', {
      name: 'today',
      description: 'Today’s memo',
      mimeType: 'text/plain',
    })
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
  return createServer({ name: 'upstream', version: '1.0.0', providers: [Desk], logger: quiet });
}

/** A logger that keeps warnings out of the test output. */
export const quiet = { error() {}, warn() {} };
