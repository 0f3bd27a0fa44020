// Issue 40: JSON Schema validators are generated on their first use (GitHub's OpenAPI description
// compiled 1,223 tools' validators at startup), while a schema Ajv would refuse still fails at
// startup — checked against its meta-schema there, and compiled there when it holds what that
// check cannot judge (a reference, a pattern, an unknown format).
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, StartupError, Tool, type Provider } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { type JsonSchema, ValidatorCompiler } from '@mcp-fw/core/validation';

function startupError(providers: Provider[]): StartupError {
  try {
    createServer({ name: 'lazy', version: '1.0.0', providers });
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return error as StartupError;
  }
  throw new Error('createServer accepted the schema');
}

function toolWith(input: JsonSchema, output?: JsonSchema): Provider {
  class Lookup {
    @Tool({ description: 'Finds one thing.', input, ...(output ? { output } : {}) })
    find() {
      return output ? { structuredContent: { found: 1 }, content: [] } : 'found';
    }
  }
  return Lookup;
}

// Ajv's compile, wherever core's copy of Ajv runs it (both dialect classes inherit it).
function compiles() {
  const core = Object.getPrototypeOf(Ajv.prototype) as Pick<Ajv, 'compile'>;
  return vi.spyOn(core, 'compile');
}

describe('validators compiled lazily, checked at startup', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an invalid schema still fails at startup naming the tool and the JSON pointer', () => {
    const error = startupError([
      toolWith({
        type: 'object',
        properties: { filter: { type: 'object', properties: { limit: { minimum: 'ten' } } } },
      }),
    ]);
    expect(error.code).toBe('INVALID_SCHEMA');
    expect(error.message).toContain(
      'Lookup.find: cannot use the input schema: schema is invalid: data/properties/filter/properties/limit/minimum must be number',
    );
    const output = startupError([
      toolWith({ type: 'object' }, { type: 'object', properties: { a: { type: 'text' } } }),
    ]);
    expect(output.message).toContain(
      'Lookup.find: cannot use the output schema: schema is invalid: data/properties/a/type must be',
    );
  });

  it.each([
    [
      'a $ref to nothing',
      { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
      "can't resolve reference #/$defs/missing",
    ],
    [
      'a $ref to another document',
      { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
      "can't resolve reference https://example.com/a.json",
    ],
    [
      'a pattern that is no u-flag RegExp',
      { type: 'object', properties: { a: { type: 'string', pattern: '[\\w-.]' } } },
      'Invalid regular expression: /[\\w-.]/u',
    ],
    [
      'a patternProperties key that is no RegExp',
      { type: 'object', patternProperties: { '(': { type: 'string' } } },
      'Invalid regular expression: /(/u',
    ],
  ])('what the meta-schema cannot judge still fails at startup: %s', (_label, input, message) => {
    const error = startupError([toolWith(input)]);
    expect(error.code).toBe('INVALID_SCHEMA');
    expect(error.message).toContain('Lookup.find: cannot use the input schema: ');
    expect(error.message).toContain(message);
  });

  it('a validator is compiled on first call, once', async () => {
    const spy = compiles();
    const input = {
      type: 'object',
      properties: {
        q: { type: 'string', pattern: '^[a-z]+@', format: 'email' },
        page: { $ref: '#/$defs/page' },
      },
      required: ['q'],
      $defs: { page: { type: 'integer', minimum: 1, default: 1 } },
    };
    const server = createServer({ name: 'lazy', version: '1.0.0', providers: [toolWith(input)] });
    const ofThisSchema = () => spy.mock.calls.filter(([schema]) => schema === input).length;
    expect(ofThisSchema()).toBe(0);
    const client = await connectTestClient(server);
    try {
      // Two first calls in flight at once, then a refusal and a later call: one compilation.
      const [a, b] = await Promise.all([
        client.callTool('find', { q: 'a@example.com' }),
        client.callTool('find', { q: 'b@example.com', page: 2 }),
      ]);
      expect(a.isError).toBeFalsy();
      expect(b.isError).toBeFalsy();
      const refused = await client.callTool('find', { q: 'x@example.com', page: 0 });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('page');
      expect(ofThisSchema()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('a deferred validator answers as one compiled at once (defaults filled in, same issues)', async () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', default: 3 }, tag: { $ref: '#/$defs/tag' } },
      $defs: { tag: { type: 'string', maxLength: 3 } },
    };
    const spy = compiles();
    const check = new ValidatorCompiler({ engine: 'compiled' }).compile(schema, schema);
    expect(spy).not.toHaveBeenCalled();
    expect(await check({})).toEqual({ ok: true, value: { n: 3 } });
    expect(await check({ tag: 'long' })).toEqual({
      ok: false,
      issues: [{ path: 'tag', message: 'must NOT have more than 3 characters' }],
    });
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
