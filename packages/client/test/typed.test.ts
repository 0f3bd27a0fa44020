import { connect, typedClient } from '@mcp-fw/client';
import { describe, expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';

// typedClient's runtime half: each property of `tools` calls the tool of that name. (Its
// compile-time half is checked with tsc in packages/cli/test/client-types.test.ts.)

type Tools = {
  add: { input: { a: number; b: number }; output: { result: number; expression: string } };
  divide: { input: { a: number; b: number }; output: { result: number; expression: string } };
};

describe('typedClient', () => {
  it('client.tools.<name>(args) calls that tool, structuredContent typed by its output', async () => {
    const typed = typedClient<Tools>(await connect(calculator));
    const sum = await typed.tools.add({ a: 2, b: 5 });
    const result: number | undefined = sum.structuredContent?.result;
    expect(result).toBe(7);
    const byZero = await typed.tools.divide({ a: 1, b: 0 });
    expect(byZero.isError).toBe(true);
    await typed.client.close();
  });
});
