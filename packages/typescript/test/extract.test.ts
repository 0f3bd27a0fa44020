import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  ExtractionError,
  extractSchemas,
  SchemaExtractor,
  type SchemaManifest,
} from '../src/index.ts';

const corpus = (name: string) => fileURLToPath(new URL(`corpus/${name}`, import.meta.url));
const GOLDEN = fileURLToPath(new URL('golden/forms.json', import.meta.url));

function golden(manifest?: SchemaManifest): unknown {
  // UPDATE_GOLDEN=1 rewrites the file after a deliberate change; review its diff like code.
  if (manifest && process.env.UPDATE_GOLDEN)
    writeFileSync(GOLDEN, `${JSON.stringify(manifest, null, 2)}\n`);
  return JSON.parse(readFileSync(GOLDEN, 'utf8'));
}

describe('schemas from TypeScript signatures (golden corpus)', () => {
  const legacy = extractSchemas({ tsconfig: corpus('tsconfig.json') });

  it('gives each type form the schema in golden/forms.json', () => {
    expect(legacy).toEqual(golden(legacy));
    // A few forms spelled out, so the golden file cannot silently drift to something wrong.
    const forms = legacy.Forms;
    expect(forms.optionals.input).toMatchObject({
      properties: {
        limit: { type: 'number' },
        units: { type: 'string', default: 'metric', description: 'The unit system' },
      },
      required: ['query'],
    });
    expect(forms.recursive.input).toMatchObject({
      properties: { tree: { $ref: '#/$defs/Tree' } },
      $defs: {
        Tree: { properties: { children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } },
      },
    });
    expect(forms.context).toMatchObject({
      params: ['city'],
      input: { properties: { city: { type: 'string' } } },
    });
    expect(forms.destructured.params).toBeUndefined();
    expect(forms.output.output).toMatchObject({
      properties: { at: { type: 'string', format: 'date-time' } },
    });
    // A Date beside null is still handed over as a Date; beside string it stays a string.
    expect(forms.dates.dates).toEqual([['when'], ['range', 'from'], ['range', 'to'], ['until']]);
    expect(forms.outputVoid.output).toBeUndefined();
    expect(forms.outputContent.output).toBeUndefined();
    expect(forms.explicitDescription.description).toBeUndefined();
    expect(forms.staticResource).toEqual({});
    expect(forms.globalTypes.input).toMatchObject({
      properties: { os: { type: 'string', enum: expect.arrayContaining(['linux', 'win32']) } },
    });
  });

  it('gives the same schemas under standard (TC39) decorators', () => {
    expect(extractSchemas({ tsconfig: corpus('tsconfig.standard.json') })).toEqual(legacy);
  });

  it('writes schemas that compile and validate under Ajv 2020-12 in strict mode', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false });
    addFormats.default(ajv);
    for (const [name, member] of Object.entries(legacy.Forms)) {
      for (const schema of [member.input, member.output])
        if (schema) expect(() => ajv.compile(schema), name).not.toThrow();
    }
    const validate = ajv.compile(legacy.Forms.recursive.input!);
    expect(validate({ tree: { value: 1, children: [{ value: 2, children: [] }] } })).toBe(true);
    expect(validate({ tree: { value: 1, children: [{ value: 'x', children: [] }] } })).toBe(false);
    const tuples = ajv.compile(legacy.Forms.tuples.input!);
    expect(tuples({ pair: ['a', 1], optional: [1], rest: ['a', 1, 2] })).toBe(true);
    expect(tuples({ pair: ['a', 1, 2], optional: [1], rest: ['a'] })).toBe(false);
  });
});

describe('SchemaExtractor, run again after an edit', () => {
  it('sees the edited file and keeps the others', () => {
    const dir = fileURLToPath(new URL(`../.cache/incremental-${process.pid}/`, import.meta.url));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(corpus('forms.ts'), `${dir}forms.ts`);
    // Same depth below the repository root as corpus/, so the tsconfig's `extends` holds.
    cpSync(corpus('tsconfig.json'), `${dir}tsconfig.json`);
    try {
      const extractor = new SchemaExtractor({ tsconfig: `${dir}tsconfig.json` });
      expect(extractor.extract()).toEqual(golden());
      const source = readFileSync(`${dir}forms.ts`, 'utf8');
      writeFileSync(
        `${dir}forms.ts`,
        source.replace(
          'recursive(tree: Tree): string {',
          'recursive(tree: Tree, depth?: number): string {',
        ),
      );
      const edited = extractor.extract();
      expect(edited.Forms.recursive.params).toEqual(['tree', 'depth']);
      expect(edited.Forms.recursive.input).toMatchObject({
        properties: { depth: { type: 'number' } },
        required: ['tree'],
      });
      expect({ ...edited.Forms, recursive: undefined }).toEqual({
        ...(golden() as SchemaManifest).Forms,
        recursive: undefined,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('signatures JSON cannot carry', () => {
  const problems = (() => {
    try {
      extractSchemas({ tsconfig: corpus('tsconfig.errors.json') });
    } catch (error) {
      if (error instanceof ExtractionError) return error.problems;
      throw error;
    }
    throw new Error('extraction of corpus/errors.ts succeeded');
  })();

  it('fail naming member, parameter, type and fix, all of them at once', () => {
    expect(problems).toEqual([
      "Bad.callback, parameter 'done': type '() => void' is a function, which JSON cannot carry. Fix: take the data the function would compute as plain values",
      "Bad.big, parameter 'amount': type 'bigint' has no JSON form (JSON numbers are doubles). Fix: use number, or a string of digits",
      "Bad.symbol, parameter 'key': type 'symbol' has no JSON form. Fix: use a string",
      "Bad.instance, parameter 'connection': type 'Connection' has the method open(), so it is a class instance rather than data JSON can carry. Fix: declare an interface with only its data fields and take that",
      "Bad.untyped, parameter 'value': type 'any' says nothing about its values. Fix: give it a type (or allow any with { allowAny: true })",
      "Bad.nested, parameter 'options': retry.onFail: type '(n: number) => void' is a function, which JSON cannot carry. Fix: take the data the function would compute as plain values",
      "Bad.map, parameter 'index': type 'Map<string, number>' is a Map, which JSON cannot carry. Fix: use Record<string, V> (an object) or an array of [key, value] tuples",
      'Bad.contextFirst: the Context parameter must come last (it is parameter #1 of 2). Fix: move it after the arguments.',
      "Bad.rest: parameter 'names' is a rest parameter. Fix: take an array, e.g. names: string[].",
      'Bad.badTag, parameter \'limits\': n: @minimum needs a number, got "ten"',
      'Bad.countedPrompt, argument \'count\': prompt arguments are strings on the wire, so it must be typed string (or a union of string literals), not "number". Fix: take a string and convert it in the method, or declare input with a coercing schema (z.coerce.number()).',
      'Bad.numberedItem, argument \'id\': URI template variables are strings on the wire, so it must be typed string (or a union of string literals), not "number". Fix: take a string and convert it in the method, or declare input with a coercing schema (z.coerce.number()).',
      "Bad.returnsInstance, return type: type 'Connection' has the method open(), so it is a class instance rather than data JSON can carry. Fix: declare an interface with only its data fields and take that",
    ]);
  });

  it('accept any and unknown as any JSON value when allowed', () => {
    let allowed: readonly string[] = [];
    try {
      extractSchemas({ tsconfig: corpus('tsconfig.errors.json'), allowAny: true });
    } catch (error) {
      allowed = (error as ExtractionError).problems;
    }
    expect(allowed).toHaveLength(problems.length - 1);
    expect(allowed.some((p) => p.startsWith('Bad.untyped'))).toBe(false);
  });
});

describe('explicit schemas that disagree with the signature', () => {
  it('fail at build time naming the member, the field and both types; agreeing ones pass', () => {
    let problems: readonly string[] = [];
    try {
      extractSchemas({ tsconfig: corpus('tsconfig.mismatch.json') });
    } catch (error) {
      problems = (error as ExtractionError).problems;
    }
    expect(problems).toEqual([
      "tool Mismatch.add: its input schema and the arguments parameter disagree: field 'a': the schema gives 'number', the handler expects 'string'. Fix: type the parameter as the schema's output (z.infer<typeof schema>), or correct the schema.",
      "tool Mismatch.twice: field 'n': the @Arg schema gives 'string', but parameter 'n' expects 'number'. Fix: make the parameter type and the schema agree.",
      "tool Mismatch.wrongResult: its return value and its output schema disagree: field 'total': the handler returns 'string', the output schema expects 'number'. Fix: return the schema's type (z.input<typeof output>), or correct the schema.",
      "tool Mismatch.wrongWholeResult: its return value and its output schema disagree: field 'total': the handler returns 'string', the output schema expects 'number'. Fix: return the schema's type (z.input<typeof output>), or correct the schema.",
    ]);
  });
});
