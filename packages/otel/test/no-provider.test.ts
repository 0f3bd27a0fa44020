import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { telemetry } from '@mcp-fw/otel';

// No SDK in this file (its own worker): the API's no-op providers are all there is.
class Echo {
  @Tool({ description: 'Echoes', input: z.object({ text: z.string() }) })
  echo({ text }: { text: string }) {
    return text;
  }
}

describe('@mcp-fw/otel with no provider registered', () => {
  it('switches itself off, and the server answers as without it', async () => {
    const middleware = telemetry();
    expect(middleware.enabled?.()).toBe(false);
    const server = createServer({ name: 'e', version: '1', providers: [Echo] });
    server.use(middleware);
    const c = await connectTestClient(server);
    expect((await c.callTool('echo', { text: 'hi' })).content[0].text).toBe('hi');
    // No trace context is added to anything the server sends.
    expect(c.wire.some((w) => w.line.includes('traceparent'))).toBe(false);
    await c.close();
  });
});
