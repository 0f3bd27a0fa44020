// Explicit schemas that disagree with the signature (issue 18 point 4), beside ones that agree.
import { Arg, Tool } from '@mcp-fw/core';
import { z } from 'zod';

const Sum = z.object({ total: z.number() });

export class Mismatch {
  // The typed decorator makes this a compile error too (both decorator modes); the extractor
  // still reports it for projects that build without type-checking (tsx, esbuild, vite).
  // @ts-expect-error -- { a: number } is not assignable to { a: string }
  @Tool({ input: z.object({ a: z.number() }) })
  add({ a }: { a: string }): string {
    return a;
  }

  @Tool()
  twice(@Arg('n', z.string()) n: number): number {
    return n * 2;
  }

  @Tool({ input: z.object({ a: z.number() }), output: Sum })
  wrongResult({ a }: { a: number }): { total: string } {
    return { total: String(a) };
  }

  // A whole result: its structuredContent is what the output schema checks.
  @Tool({ output: Sum })
  wrongWholeResult(): {
    content: { type: 'text'; text: string }[];
    structuredContent: { total: string };
  } {
    return { content: [{ type: 'text', text: '1' }], structuredContent: { total: '1' } };
  }

  // These agree: no problem reported.
  @Tool({ output: Sum })
  wholeResult(): {
    content: { type: 'text'; text: string }[];
    structuredContent: { total: number };
  } {
    return { content: [{ type: 'text', text: '1' }], structuredContent: { total: 1 } };
  }

  @Tool({ input: z.object({ a: z.number(), b: z.number().optional() }), output: Sum })
  async sum({ a, b = 0 }: { a: number; b?: number }): Promise<z.input<typeof Sum>> {
    return { total: a + b };
  }

  @Tool()
  echo(
    @Arg('text', z.string()) text: string,
    @Arg('times', z.number().optional()) times?: number,
  ): string {
    return text.repeat(times ?? 1);
  }
}
