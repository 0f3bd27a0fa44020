import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, image, Resource, Tool, type ServerLimits } from '@mcp-fw/core';
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

const Size = z.object({ n: z.number().int(), char: z.string().default('x') });
const TRICKY = 'ok\u001b[2J\tline\nnext\u0000\u007f\u0085 \u202egnp.exe\u2066';

class Output {
  @Tool({ description: 'Returns n copies of a character', input: Size })
  text({ n, char }: z.infer<typeof Size>) {
    return char.repeat(n);
  }

  @Tool({ description: 'Returns an image of n base64 characters', input: Size })
  picture({ n }: z.infer<typeof Size>) {
    return image('A'.repeat(n), 'image/png');
  }

  @Tool({ description: 'Returns text with control characters', input: z.object({}) })
  tricky() {
    return TRICKY;
  }

  @Tool({
    description: 'Structured output with control characters',
    input: z.object({}),
    output: z.object({ s: z.string() }),
  })
  structured() {
    return { s: '\u001b[31mred' };
  }

  @Resource('big://file', { mimeType: 'text/plain' })
  big() {
    return 'y'.repeat(1500);
  }
}

const tooLarge = (what: string, bytes: number) =>
  `${what} produced ${bytes} bytes of content, more than the limit of 1000 bytes (maxResultBytes). Return less, or link to a resource instead.`;

describe.each(CLIENT_MODES)('output limits through the official client (%s, %s)', (mode) => {
  async function start(limits: ServerLimits) {
    const http = await listen(
      createServer({ name: 'output', version: '1.0.0', providers: [Output], limits }),
    );
    cleanups.push(() => http.close());
    const { client, close } = await officialClient(http.url, mode);
    cleanups.push(close);
    return client;
  }

  it('answers a result over maxResultBytes with a clear error, counting UTF-8 bytes and blobs', async () => {
    const client = await start({ maxResultBytes: 1000 });
    const call = async (name: string, args: Record<string, unknown>) =>
      withoutMeta(await client.callTool({ name, arguments: args }));
    expect(textOf(await call('text', { n: 1000 }))).toBe('x'.repeat(1000));
    expect(await call('text', { n: 1001 })).toEqual({
      content: [{ type: 'text', text: tooLarge('Tool text', 1001) }],
      isError: true,
    });
    // 'é' is two bytes in UTF-8: 500 fit, 501 do not.
    expect(textOf(await call('text', { n: 500, char: 'é' }))).toBe('é'.repeat(500));
    expect(textOf(await call('text', { n: 501, char: 'é' }))).toBe(tooLarge('Tool text', 1002));
    expect(textOf(await call('picture', { n: 1200 }))).toBe(tooLarge('Tool picture', 1200));
    await expect(client.readResource({ uri: 'big://file' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining(tooLarge('Resource big://file', 1500)),
    });
  });

  it('escapes control characters in tool text by default, keeping tabs and line breaks', async () => {
    const client = await start({});
    expect(textOf(await client.callTool({ name: 'tricky', arguments: {} }))).toBe(
      'ok\\u001b[2J\tline\nnext\\u0000\\u007f\\u0085 \\u202egnp.exe\\u2066',
    );
    // Structured content travels as JSON, where control characters are escaped anyway.
    const structured = await client.callTool({ name: 'structured', arguments: {} });
    expect(structured.structuredContent).toEqual({ s: '\u001b[31mred' });
    expect(textOf(structured)).toBe('{"s":"\\u001b[31mred"}');
    expect((await client.readResource({ uri: 'big://file' })).contents).toEqual([
      { uri: 'big://file', mimeType: 'text/plain', text: 'y'.repeat(1500) },
    ]);
  });

  it('strips them, or keeps them, when configured', async () => {
    const strip = await start({ controlChars: 'strip' });
    expect(textOf(await strip.callTool({ name: 'tricky', arguments: {} }))).toBe(
      'ok[2J\tline\nnext gnp.exe',
    );
    const keep = await start({ controlChars: 'keep' });
    expect(textOf(await keep.callTool({ name: 'tricky', arguments: {} }))).toBe(TRICKY);
  });
});
