// JSON Schema validation where code generation is forbidden (issue 38): Ajv compiles schemas to
// JavaScript with `new Function`, which Cloudflare Workers refuse, so there core checks with an
// interpreter (@cfworker/json-schema). Both must answer the golden corpus alike, on Node and in
// real workerd; and Bun and Deno (Ajv, as on Node) must answer it as Node does.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidatorCompiler, setValidationEngine, type Validation } from '@mcp-fw/core/validation';
import { corpus } from './fixtures/validation/corpus.ts';
import { startWorker, type RunningWorker } from './support/workerd.ts';

async function answers(engine: 'compiled' | 'interpreted'): Promise<Validation[]> {
  const compiler = new ValidatorCompiler({ engine });
  const results: Validation[] = [];
  for (const { schema, values } of corpus) {
    const check = compiler.compile(schema, schema);
    for (const value of values) results.push(await check(structuredClone(value)));
  }
  return results;
}

// Where a case only promises the verdict, the interpreter's single issue is the last of Ajv's
// (the anyOf/oneOf summary line).
function comparable(results: Validation[]): unknown[] {
  let i = 0;
  return corpus.flatMap(({ values, verdictOnly }) =>
    values.map(() => {
      const r = results[i++];
      return verdictOnly && !r.ok ? { ok: false, issues: r.issues.slice(-1) } : r;
    }),
  );
}

describe('validation without code generation', () => {
  afterEach(() => setValidationEngine('auto'));

  it('the golden corpus gets the same verdicts, defaults and messages from the interpreter as from Ajv', async () => {
    const [compiled, interpreted] = await Promise.all([
      answers('compiled'),
      answers('interpreted'),
    ]);
    expect(compiled.filter((r) => !r.ok).length).toBeGreaterThan(30);
    expect(comparable(interpreted)).toEqual(comparable(compiled));
    // The defaults case: filled in, nested ones included, by both.
    const defaults = corpus.findIndex((c) => c.name.startsWith('defaults'));
    const first = corpus.slice(0, defaults).reduce((n, c) => n + c.values.length, 0);
    expect(interpreted[first]).toEqual({
      ok: true,
      value: { limit: 10, options: { verbose: false, depth: 2 } },
    });
  });

  it('a frozen schema (as the registry keeps them) is interpreted without being changed', () => {
    const freeze = (node: unknown): unknown => {
      if (typeof node === 'object' && node !== null)
        Object.values(Object.freeze(node)).forEach(freeze);
      return node;
    };
    const schema = freeze(structuredClone(corpus[0].schema)) as Record<string, unknown>;
    const check = new ValidatorCompiler({ engine: 'interpreted' }).compile(schema, schema);
    expect(check({ a: 'x' })).toEqual({
      ok: false,
      issues: [{ path: 'a', message: 'must be number' }],
    });
    expect(Object.getOwnPropertyNames(schema)).toEqual(Object.keys(corpus[0].schema));
  });

  it('auto keeps Ajv on Node, and setValidationEngine forces the interpreter', () => {
    expect(new ValidatorCompiler().engine).toBe('compiled');
    setValidationEngine('interpreted');
    expect(new ValidatorCompiler().engine).toBe('interpreted');
    expect(new ValidatorCompiler({ engine: 'compiled' }).engine).toBe('compiled');
    expect(() => setValidationEngine('fast' as never)).toThrow(
      /use 'auto', 'compiled' or 'interpreted'/,
    );
  });

  describe('in workerd', () => {
    let worker: RunningWorker | undefined;
    afterEach(async () => worker?.stop());

    it('validation results are identical under workerd, where new Function is refused', async () => {
      worker = await startWorker({
        entry: join(import.meta.dirname, 'fixtures/validation/worker.ts'),
      });
      const response = await fetch(worker.origin);
      expect(response.status, worker.output()).toBe(200);
      const body = (await response.json()) as {
        engine: string;
        evalRefused: boolean;
        results: Validation[];
      };
      expect(body.evalRefused).toBe(true);
      expect(body.engine).toBe('interpreted');
      expect(comparable(body.results)).toEqual(comparable(await answers('compiled')));
    }, 30_000);
  });

  describe.each([
    ['bun', ['RUNTIME_CORPUS']],
    ['deno', ['run', '--allow-read', '--allow-env', 'RUNTIME_CORPUS']],
  ] as const)('in %s', (runtime, args) => {
    it(`validation results are identical under ${runtime}`, async () => {
      const bin = fileURLToPath(new URL(`../../../node_modules/.bin/${runtime}`, import.meta.url));
      const script = join(import.meta.dirname, 'fixtures/validation/runtime-corpus.ts');
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          bin,
          args.map((a) => (a === 'RUNTIME_CORPUS' ? script : a)),
          { timeout: 60_000 },
          (error, out, err) =>
            error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
        ),
      );
      const body = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
        runtime: string;
        engine: string;
        results: Validation[];
      };
      expect(body.runtime).toBe(runtime);
      expect(body.engine).toBe('compiled');
      expect(comparable(body.results)).toEqual(comparable(await answers('compiled')));
    }, 60_000);
  });
});
