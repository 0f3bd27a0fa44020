// The soak benchmark's server: one process serving stdio and HTTP at once (so one RSS covers
// both transports), with guardrails on. `--stdio-only` serves stdio alone (the short-lived
// servers the soak disconnects from). Started with --expose-gc so the harness can ask for a
// full collection before it reads RSS.
// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { z } from 'zod';

const Operands = z.object({ a: z.number(), b: z.number() });

class SoakTools {
  @Tool({ description: 'Adds two numbers', input: Operands })
  add({ a, b }: z.infer<typeof Operands>) {
    return String(a + b);
  }

  @Tool({ description: 'Returns its text', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({
    description: 'Waits, unless stopped',
    input: z.object({ ms: z.number().int().min(0).max(10_000) }),
  })
  slow({ ms }: { ms: number }, ctx: Context) {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`slept ${ms}`), ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    });
  }

  @Tool({ description: 'Returns n characters', input: z.object({ n: z.number().int().min(0) }) })
  big({ n }: { n: number }) {
    return 'x'.repeat(n);
  }

  @Tool({ description: 'Rate limited', input: z.object({}), rateLimit: { max: 50, perMs: 1000 } })
  limited() {
    return 'ok';
  }

  @Tool({ description: 'Asks for a name', input: z.object({}) })
  async ask(_: object, ctx: Context) {
    const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
    return answer.action === 'accept' ? `Hello, ${answer.content.name}` : answer.action;
  }

  @Tool({
    description: 'Runs a full garbage collection; answers the heap in use after it, in bytes',
    input: z.object({}),
  })
  gc() {
    (globalThis as { gc?: () => void }).gc?.();
    return String(process.memoryUsage().heapUsed);
  }
}

const server = createServer({
  name: 'soak',
  version: '1.0.0',
  providers: [SoakTools],
  limits: {
    maxResultBytes: 64 * 1024,
    timeoutMs: 2_000,
    concurrency: { perSession: 64, perServer: 512, maxQueued: 256 },
    inputRounds: { maxWaiting: 256 },
  },
  inputRounds: { roundTimeoutMs: 10_000 },
});

const stdio = serveStdio(server, { exit: false, shutdownGraceMs: 1_000 });
// Abandoned sessions are reaped while the soak runs, not after it.
const http = process.argv.includes('--stdio-only')
  ? undefined
  : await serveHttp(server, { port: 0, idleTimeoutMs: 3_000 });
if (http) process.stderr.write(`soak http ${http.url}\n`);
// The harness hanging up (stdin EOF) ends the whole server, HTTP included.
await stdio.closed;
await http?.close();
process.exit(0);
