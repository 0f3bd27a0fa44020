import { expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';

class Base {
  @Tool('Greets')
  greet() {
    return 'hello from base';
  }

  @Tool('Version')
  version() {
    return '1';
  }
}

class Child extends Base {
  @Tool({ description: 'Greets louder', input: z.object({ name: z.string() }) })
  override greet(args?: { name: string }) {
    return `HELLO ${args?.name}`;
  }
}

it('a subclass that re-decorates an inherited method replaces the parent tool instead of clashing with it', async () => {
  const client = await connectTestClient(
    createServer({ name: 'x', version: '1', providers: [Child] }),
  );
  const { tools } = await client.listTools();
  expect(tools.map((t) => [t.name, t.description])).toEqual([
    ['version', 'Version'],
    ['greet', 'Greets louder'],
  ]);
  expect((await client.callTool('greet', { name: 'Ada' })).content).toEqual([
    { type: 'text', text: 'HELLO Ada' },
  ]);
});

it('does not freeze the JSON Schema object the user passed in', () => {
  const schema = { type: 'object', properties: { q: { type: 'string' } } };
  class Search {
    @Tool({ input: schema })
    search() {
      return '';
    }
  }
  createServer({ name: 'x', version: '1', providers: [Search] });
  expect(Object.isFrozen(schema)).toBe(false);
  expect(Object.isFrozen(schema.properties)).toBe(false);
});
