import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Arg,
  createServer,
  StartupError,
  Tool,
  type Provider,
  type StartupErrorCode,
} from '@mcp-fw/core';

/** The StartupError that creating a server from `providers` throws. */
function startupError(providers: Provider[]): StartupError {
  let error: unknown;
  try {
    createServer({ name: 'startup', version: '1.0.0', providers });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
}

function expectStartupError(providers: Provider[], code: StartupErrorCode, ...fragments: string[]) {
  const error = startupError(providers);
  expect(error.name).toBe('StartupError');
  expect(error.code).toBe(code);
  for (const fragment of fragments) expect(error.message).toContain(fragment);
  return error;
}

interface Point {
  x: number;
  y: number;
}

describe('createServer refuses bad classes with a StartupError', () => {
  it('duplicate tool names: names both places and the fix', () => {
    class Orders {
      @Tool() lookup() {
        return 'orders';
      }
    }
    class Customers {
      @Tool({ name: 'lookup' }) find() {
        return 'customers';
      }
    }
    const error = expectStartupError(
      [Orders, Customers],
      'DUPLICATE_NAME',
      '"lookup"',
      'Orders.lookup',
      'Customers.find',
    );
    expect(error.message).toContain("@Tool({ name: '...' })");
  });

  it('duplicate tool names within one class', () => {
    class Twice {
      @Tool({ name: 'same' }) one() {
        return '1';
      }
      @Tool({ name: 'same' }) two() {
        return '2';
      }
    }
    expectStartupError([Twice], 'DUPLICATE_NAME', 'Twice.one', 'Twice.two');
  });

  it.each([
    ['empty', ''],
    ['129 characters', 'x'.repeat(129)],
    ['a space', 'two words'],
    ['a slash', 'orders/lookup'],
    ['a non-ASCII letter', 'café'],
  ])('invalid tool name (%s)', (_label, name) => {
    class Named {
      @Tool({ name }) method() {
        return '';
      }
    }
    const error = expectStartupError([Named], 'INVALID_NAME', 'Named.method', JSON.stringify(name));
    expect(error.message).toContain("@Tool({ name: 'valid_name' })");
  });

  it('valid names: 128 characters, and ".", "-", "_"', () => {
    const long = 'n'.repeat(128);
    class Fine {
      @Tool({ name: long }) a() {
        return '';
      }
      @Tool({ name: 'orders.v2-lookup_by_id' }) b() {
        return '';
      }
      @Tool() snake_case_1() {
        return '';
      }
    }
    const server = createServer({ name: 'startup', version: '1.0.0', providers: [Fine] });
    expect(server.tools.names()).toEqual([long, 'orders.v2-lookup_by_id', 'snake_case_1']);
  });

  it('@Arg without a schema on a parameter of an object type: names class, method, parameter, fix', () => {
    class Shapes {
      @Tool()
      area(@Arg('x') x: Point) {
        return String(x.x * x.y);
      }
    }
    const error = expectStartupError(
      [Shapes],
      'MISSING_SCHEMA',
      "@Arg('x')",
      'Shapes.area',
      'parameter #1',
    );
    expect(error.message).toContain("Fix: pass one, e.g. @Arg('x', z.string())");
  });

  it('@Arg without a schema on a parameter of a class type (Date)', () => {
    class Calendar {
      @Tool()
      weekday(@Arg('day', z.string()) _day: string, @Arg('when') when: Date) {
        return String(when.getDay());
      }
    }
    expectStartupError(
      [Calendar],
      'MISSING_SCHEMA',
      "@Arg('when')",
      'Calendar.weekday',
      'parameter #2',
      'Fix:',
    );
  });

  it('a method with parameters but neither input nor @Arg', () => {
    class Bare {
      @Tool()
      echo(value: string) {
        return value;
      }
    }
    const error = expectStartupError(
      [Bare],
      'MISSING_SCHEMA',
      'Bare.echo takes parameters but declares no schema',
    );
    expect(error.message).toContain(
      "Fix: add @Tool({ input: z.object({ ... }) }), or name each parameter with @Arg('name', schema)",
    );
  });

  it('a parameter before an @Arg left without one', () => {
    class Gap {
      @Tool()
      pair(first: string, @Arg('second', z.string()) second: string) {
        return first + second;
      }
    }
    expectStartupError([Gap], 'MISSING_SCHEMA', 'Gap.pair', 'parameter #1 has no @Arg');
  });

  it('@Arg combined with input', () => {
    class Both {
      // The typed decorator already refuses this at compile time (the first parameter is not the
      // arguments object); the startup check stays for JavaScript and for casts.
      // @ts-expect-error -- { a: string } is not assignable to string
      @Tool({ input: z.object({ a: z.string() }) })
      both(@Arg('a', z.string()) a: string) {
        return a;
      }
    }
    const message = 'Both.both declares both @Tool({ input }) and @Arg parameters';
    expectStartupError([Both], 'CONFLICTING_OPTIONS', message);
  });

  it.each([
    ['a zod string', z.string(), '"string"'],
    ['a zod array', z.array(z.number()), '"array"'],
    ['a raw JSON Schema array', { type: 'array', items: { type: 'number' } }, '"array"'],
    ['a nullable object', { type: ['object', 'null'] }, '["object","null"]'],
  ])('an input schema of non-object type (%s)', (_label, input, type) => {
    class NotObject {
      @Tool({ input })
      run(args: unknown) {
        return String(args);
      }
    }
    const what = 'the input schema must describe an object';
    const error = expectStartupError([NotObject], 'INVALID_SCHEMA', 'NotObject.run', what);
    expect(error.message).toContain(`(it has type ${type})`);
    expect(error.message).toContain('Fix: wrap it, e.g. z.object({ value: ... })');
  });

  it('an output schema of non-object type', () => {
    class NotObject {
      @Tool({ output: z.number() })
      run() {
        return 1;
      }
    }
    expectStartupError(
      [NotObject],
      'INVALID_SCHEMA',
      'NotObject.run',
      'the output schema must describe an object',
    );
  });

  it('a value that is no schema at all', () => {
    class Weird {
      @Tool({ input: new Map() as never })
      run() {
        return '';
      }
    }
    expectStartupError(
      [Weird],
      'INVALID_SCHEMA',
      'Weird.run: cannot use the input schema',
      'expected a zod schema, a Standard Schema or a JSON Schema object',
    );
  });

  it('an invalid raw JSON Schema is refused by the validator compiler, naming the tool', () => {
    class BadInput {
      @Tool({ input: { type: 'object', properties: { a: { type: 'text' } } } })
      run(args: unknown) {
        return String(args);
      }
    }
    expectStartupError(
      [BadInput],
      'INVALID_SCHEMA',
      'BadInput.run: cannot use the input schema: schema is invalid: data/properties/a/type must be',
    );
    class BadOutput {
      @Tool({ output: { type: 'object', required: 'all' } })
      run() {
        return {};
      }
    }
    const output = 'BadOutput.run: cannot use the output schema: schema is invalid';
    expectStartupError([BadOutput], 'INVALID_SCHEMA', output);
    class BadArg {
      @Tool()
      run(@Arg('n', { type: 'number', minimum: 'one' }) n: number) {
        return String(n);
      }
    }
    expectStartupError(
      [BadArg],
      'INVALID_SCHEMA',
      "BadArg.run: cannot use the @Arg('n') schema: schema is invalid",
    );
  });

  it('a class with no tools', () => {
    class Empty {
      helper() {
        return '';
      }
    }
    expectStartupError(
      [Empty],
      'INVALID_PROVIDER',
      'Empty has no @Tool',
      'Fix: decorate at least one method',
    );
  });

  it('a class whose constructor needs arguments: suggests passing an instance', () => {
    class Repository {
      readonly db: { query(): string };
      constructor(deps: { db: { query(): string } }) {
        this.db = deps.db;
      }
      @Tool() query() {
        return this.db.query();
      }
    }
    const what = 'Cannot construct Repository with no arguments';
    const error = expectStartupError([Repository], 'INVALID_PROVIDER', what);
    expect(error.message).toContain(
      'Fix: pass an instance instead, e.g. providers: [new Repository(deps)]',
    );
    // And the fix works.
    const server = createServer({
      name: 'startup',
      version: '1.0.0',
      providers: [new Repository({ db: { query: () => 'rows' } })],
    });
    expect(server.tools.names()).toEqual(['query']);
  });

  it('fails at startup, before any client connects', () => {
    class Late {
      @Tool({ name: 'bad name' }) late() {
        return '';
      }
    }
    expect(() => createServer({ name: 'startup', version: '1.0.0', providers: [Late] })).toThrow(
      StartupError,
    );
  });
});

describe('createServer providers', () => {
  it('may be left out: everything can be added while serving', () => {
    const server = createServer({ name: 'empty', version: '1' });
    class Late {
      @Tool({ description: 'Late' })
      late() {
        return 'ok';
      }
    }
    server.add(Late);
    expect(server.tools.names()).toEqual(['late']);
  });

  it('that are not an array fail with the fix', () => {
    const error = (() => {
      try {
        createServer({ name: 'x', version: '1', providers: {} as never });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).code).toBe('INVALID_PROVIDER');
    expect((error as StartupError).message).toContain(
      'providers must be an array of classes or instances, got object. Write providers: [MyTools].',
    );
  });
});
