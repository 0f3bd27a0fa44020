// Typed decorator signatures (issue 18 point 4): compiled by tsc under legacy and under standard
// decorators; each @ts-expect-error must meet its error, or tsc fails with TS2578.
import { Prompt, Tool, type Context } from '@mcp-fw/core';
import { z } from 'zod';

export class Typed {
  // @ts-expect-error -- the schema gives { a: number }, the method takes { a: string }
  @Tool({ input: z.object({ a: z.number() }) })
  add({ a }: { a: string }): string {
    return a;
  }

  // @ts-expect-error -- a schema-given arguments object cannot land in a positional number
  @Tool({ input: z.object({ n: z.number() }) })
  positional(n: number): number {
    return n;
  }

  // @ts-expect-error -- prompts too
  @Prompt({ input: z.object({ code: z.string() }) })
  review({ code }: { code: number }): string {
    return String(code);
  }

  // Agreeing signatures compile: defaults make fields optional on the method's side.
  @Tool({ input: z.object({ a: z.number(), b: z.number().default(1) }) })
  sum({ a, b = 1 }: { a: number; b?: number }, ctx: Context): string {
    return `${a + b}${ctx.requestId}`;
  }

  @Tool({ description: 'Static', input: z.object({ q: z.string() }) })
  static search({ q }: { q: string }): string {
    return q;
  }

  // A JSON Schema object and plain types carry no TypeScript type: nothing to check.
  @Tool({ input: { type: 'object', properties: { on: { type: 'boolean' } } } })
  raw(args: { on: boolean }): boolean {
    return args.on;
  }

  @Tool()
  plain(a: number, b: string): string {
    return `${a}${b}`;
  }
}
