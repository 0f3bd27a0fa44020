import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type McpFwServer } from '@mcp-fw/core';
import { createHttpHandler } from '@mcp-fw/core/http';
import { JSON_AND_SSE, SURFACES, type Surface, openSession } from './support/http-surfaces.ts';

// Issue 17: a 2026-07-28 `tools/call` over HTTP looked its tool up twice, once in the HTTP
// preflight (for `x-mcp-header` arguments) and again in dispatch. The preflight's lookup is now
// handed on with the request, and dispatch uses it. Lookups are counted on the real registry.

const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

class Lookups {
  @Tool({ description: 'Adds', input: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return String(a + b);
  }

  @Tool({
    description: 'Answers with its region, which the client mirrors in a header',
    input: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
  })
  where({ region }: { region: string }) {
    return region;
  }
}

const server = (): McpFwServer =>
  createServer({ name: 'lookups', version: '1.0.0', providers: [Lookups] });

function modernCall(name: string, args: Record<string, unknown>, extra = {}) {
  return {
    method: 'POST',
    path: '/mcp',
    headers: {
      ...JSON_AND_SSE,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...extra,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: args, _meta: envelope },
    }),
  };
}

/** Counts `tool(name)` lookups on every registry of `served` (they share one prototype). */
function countLookups(served: McpFwServer) {
  return vi.spyOn(Object.getPrototypeOf(served.registry), 'tool');
}

let surface: Surface | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await surface?.close();
  surface = undefined;
});

describe.each(SURFACES)('issue 17: one tool lookup per HTTP tools/call (%s)', (_name, make) => {
  it('a 2026-07-28 call dispatches the tool its preflight looked up, without a second lookup', async () => {
    const served = server();
    surface = await make(served);
    const lookups = countLookups(served);

    const plain = await surface.send(modernCall('add', { a: 2, b: 3 }));
    expect(JSON.parse(await plain.text()).result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(lookups.mock.calls).toEqual([['add']]);

    const mirrored = await surface.send(
      modernCall('where', { region: 'eu' }, { 'mcp-param-region': 'eu' }),
    );
    expect(JSON.parse(await mirrored.text()).result.content).toEqual([
      { type: 'text', text: 'eu' },
    ]);
    expect(lookups.mock.calls).toEqual([['add'], ['where']]);

    // A miss counts as looked up too: the preflight found no such tool, and dispatch says so.
    const unknown = await surface.send(modernCall('nope', {}));
    expect(JSON.parse(await unknown.text()).error).toMatchObject({
      code: -32602,
      message: 'Unknown tool: nope',
    });
    expect(lookups.mock.calls).toEqual([['add'], ['where'], ['nope']]);
  });

  it('a tool added while serving is found by the preflight and dispatched from the new registry', async () => {
    const served = server();
    surface = await make(served);
    class Later {
      @Tool({ description: 'Added later', input: z.object({}) })
      later() {
        return 'later';
      }
    }
    served.add(Later);
    const lookups = countLookups(served);
    const res = await surface.send(modernCall('later', {}));
    expect(JSON.parse(await res.text()).result.content).toEqual([{ type: 'text', text: 'later' }]);
    expect(lookups.mock.calls).toEqual([['later']]);
  });

  it('a legacy session call, which has no preflight, looks its tool up once in dispatch', async () => {
    const served = server();
    surface = await make(served);
    const session = await openSession(surface);
    const lookups = countLookups(served);
    const res = await surface.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 1 } },
      }),
    });
    expect(JSON.parse(await res.text()).result.content).toEqual([{ type: 'text', text: '2' }]);
    expect(lookups.mock.calls).toEqual([['add']]);
  });
});

it('issue 17: what another lookup found (a relay’s copy of the tool list) is not dispatched', async () => {
  const served = server();
  const relayed: string[] = [];
  // A relay's lookup answers the preflight from its own copy; dispatch must ask the registry it serves.
  const handler = createHttpHandler({
    connect: (channel, mode) => served.connect(channel, mode),
    registry: {
      tool: (name) => {
        relayed.push(name);
        return { name, inputSchema: { type: 'object' } };
      },
    },
  });
  try {
    const lookups = countLookups(served);
    const call = modernCall('add', { a: 4, b: 5 });
    const res = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { host: 'localhost', ...call.headers },
        body: call.body,
      }),
    );
    const body = (await res.json()) as { result: { content: unknown } };
    expect(body.result.content).toEqual([{ type: 'text', text: '9' }]);
    expect(relayed).toEqual(['add']);
    expect(lookups.mock.calls).toEqual([['add']]);
  } finally {
    vi.restoreAllMocks();
    await handler.close();
  }
});
