import { libraries } from '#schema-libraries';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { interpretedCheck } from './interpreted.js';
import { isDraft07, type JsonSchema } from './json-schema.js';
import { isStandardSchema, type StandardIssue, type StandardResult } from './standard-schema.js';

/** One validation problem: where (a dotted path, empty for the root) and what. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

export type Validation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** A compiled check: synchronous for JSON Schema, possibly async for a Standard Schema. */
export type Validator = (value: unknown) => Validation | Promise<Validation>;

/**
 * How JSON Schemas are checked: `compiled` by Ajv, which generates JavaScript with
 * `new Function` (the fastest where that is allowed), or `interpreted` by @cfworker/json-schema,
 * which generates no code (Cloudflare Workers and any runtime that forbids `eval`). `auto`, the
 * default, picks `compiled` unless the runtime refuses code generation. Both give the same
 * verdicts, the same defaults filled in and, for single-keyword failures, the same messages.
 */
export type ValidationEngine = 'auto' | 'compiled' | 'interpreted';

let defaultEngine: ValidationEngine = 'auto';

/**
 * Sets the engine every {@link ValidatorCompiler} created without an `engine` option uses (the
 * validators of servers built afterwards, and the client's output-schema checks). `auto`
 * detects a runtime that forbids code generation, so this is only needed to force a choice,
 * e.g. to run the interpreter on Node in a test or under a strict Content-Security-Policy.
 *
 * @example
 * ```ts
 * import { setValidationEngine } from '@mcp-fw/core/validation';
 * setValidationEngine('interpreted'); // before createServer(...)
 * ```
 */
export function setValidationEngine(engine: ValidationEngine): void {
  if (engine !== 'auto' && engine !== 'compiled' && engine !== 'interpreted')
    throw new TypeError(
      `unknown validation engine ${JSON.stringify(engine)}; use 'auto', 'compiled' or 'interpreted'`,
    );
  defaultEngine = engine;
}

let codeGeneration: boolean | undefined;

// Workers (and a page under a CSP without 'unsafe-eval') throw EvalError on `new Function`; ask
// once, on the first JSON Schema compiled, rather than fail on the first call.
function codeGenerationAllowed(): boolean {
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return true')() === true;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

/**
 * Makes validators, checking each schema when it is given (an invalid one throws then) and
 * generating a JSON Schema's code on its first validation. A Standard Schema validates through
 * its own `~standard.validate` (so defaults and transforms apply); JSON Schema through Ajv,
 * picking the class that matches the schema's dialect (toolchain.md §6: each class rejects the
 * other's), or through the interpreter where code generation is forbidden (see
 * {@link ValidationEngine}).
 */
export class ValidatorCompiler {
  #ajv2020?: Ajv2020;
  #ajv07?: Ajv;
  readonly #engine: ValidationEngine | undefined;

  /** `engine` overrides the process-wide choice of {@link setValidationEngine}. */
  constructor(options: { readonly engine?: ValidationEngine } = {}) {
    this.#engine = options.engine;
  }

  /** The engine JSON Schemas are checked with now: `compiled` or `interpreted`. */
  get engine(): 'compiled' | 'interpreted' {
    const engine = this.#engine ?? defaultEngine;
    if (engine !== 'auto') return engine;
    return codeGenerationAllowed() ? 'compiled' : 'interpreted';
  }

  /**
   * The validator of a schema: `source` when it is a Standard Schema (zod, valibot, …),
   * otherwise `json` compiled with Ajv (or interpreted, see {@link ValidationEngine}). Throws
   * now if Ajv would refuse `json`; Ajv generates its code on the validator's first call. `json`
   * must not change afterwards.
   */
  compile(source: unknown, json: JsonSchema): Validator {
    if (isStandardSchema(source)) {
      const validate = source['~standard'].validate;
      return (value) => {
        const result = validate(value);
        return result instanceof Promise
          ? result.then((r) => fromStandard(r, value))
          : fromStandard(result, value);
      };
    }
    if (this.engine === 'interpreted') {
      const check = interpretedCheck(libraries.interpreter(), json);
      return (value) => {
        const issues = check(value);
        return issues ? { ok: false, issues } : { ok: true, value };
      };
    }
    const ajv = this.#ajvFor(json);
    // The meta-schema check is what Ajv's compile starts with (same error, same message): a
    // schema that breaks its dialect still fails here, at startup, naming the JSON pointer.
    ajv.validateSchema(json, true);
    let check = deferrable(json, ajv) ? undefined : ajv.compile(json);
    // Generating a validator costs milliseconds per schema (minutes for an OpenAPI description
    // of a thousand operations) and most tools are never called in a given process: the rest
    // is compiled on first use. One thread runs the callers, so two first calls compile once.
    return (value) => {
      check ??= ajv.compile(json);
      return check(value) ? { ok: true, value } : { ok: false, issues: fromAjv(check) };
    };
  }

  #ajvFor(json: JsonSchema): Ajv | Ajv2020 {
    // (Each constructor is read into a local first: TS 7 drops the parentheses of
    // `new (f() as T).C()`, which then calls f with `new`.)
    if (isDraft07(json)) {
      const Draft07 = libraries.ajvDraft07();
      return (this.#ajv07 ??= withFormats(new Draft07(AJV_OPTIONS)));
    }
    const Draft2020 = libraries.ajvDraft2020();
    return (this.#ajv2020 ??= withFormats(new Draft2020(AJV_OPTIONS)));
  }
}

/**
 * Whether compiling `schema` may wait for its first use: only when nothing but the meta-schema
 * check (already passed) could make Ajv refuse it. What that check misses is compiled at once,
 * so its error (or Ajv's warning) still comes at startup: a `$ref` that is not a JSON pointer
 * into this schema reaching a schema, an `$id`, anchor or dynamic reference (ids must be
 * unique across one Ajv instance), a `pattern` or `patternProperties` key that is no valid
 * `u`-flag RegExp (Ajv compiles them so; the meta-schemas do not check them), a `format` Ajv
 * does not know (it warns). A false alarm (a vendor keyword whose value holds a `$ref`) only
 * compiles early.
 */
function deferrable(schema: JsonSchema, ajv: Ajv | Ajv2020): boolean {
  const root: unknown = schema;
  // [node, whether it is a keyword's map of schemas (`properties`) rather than a schema]
  const stack: [unknown, boolean][] = [[root, false]];
  while (stack.length > 0) {
    const [node, isMap] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, false]);
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (isMap) {
        stack.push([value, false]);
        continue;
      }
      if (DATA_KEYWORDS.has(key)) continue;
      switch (key) {
        case '$ref':
          if (typeof value === 'string' && !pointsIntoSchema(root, value)) return false;
          break;
        case '$id':
        case '$anchor':
        case '$dynamicAnchor':
        case '$dynamicRef':
        case '$recursiveRef':
        case '$recursiveAnchor':
          return false;
        case 'pattern':
          if (typeof value === 'string' && !validRegExp(value)) return false;
          break;
        case 'patternProperties':
          if (typeof value === 'object' && value !== null)
            for (const source of Object.keys(value)) if (!validRegExp(source)) return false;
          break;
        case 'format':
          if (typeof value === 'string' && !(value in ajv.formats)) return false;
          break;
      }
      stack.push([value, MAP_KEYWORDS.has(key)]);
    }
  }
  return true;
}

// Keywords whose value is data, not schemas (Ajv resolves no $ref or id inside them), and those
// whose value maps names to schemas (a property may be called `pattern` or `default`).
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example', 'required']);
const MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

function validRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

// `#` or `#/a/b~1c`: a JSON pointer (RFC 6901, URI-fragment encoded) to an object or boolean.
function pointsIntoSchema(root: unknown, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) return false;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return false;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return typeof node === 'boolean' || (typeof node === 'object' && node !== null);
}

// strict: false because user schemas legitimately carry annotations Ajv does not know
// (x-mcp-header, title on every node, vendor keywords).
const AJV_OPTIONS = { strict: false, allErrors: false, useDefaults: true } as const;

function withFormats<T extends Ajv | Ajv2020>(ajv: T): T {
  libraries.addFormats(ajv);
  return ajv;
}

function fromStandard(result: StandardResult<unknown>, input: unknown): Validation {
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map((issue) => standardIssue(issue, input)) };
}

// Libraries word a missing field as a type error ("expected string, received undefined"); the
// input tells whether the field was there at all, so a missing one reads "is required".
function standardIssue(issue: StandardIssue, input: unknown): ValidationIssue {
  const keys = (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? p.key : p));
  let node = input;
  for (const key of keys)
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<PropertyKey, unknown>)[key]
        : undefined;
  const message = keys.length > 0 && node === undefined ? 'is required' : issue.message;
  return { path: keys.map(String).join('.'), message };
}

function fromAjv(check: ValidateFunction): ValidationIssue[] {
  return (check.errors ?? []).map((error: ErrorObject) => {
    const base = error.instancePath.slice(1).replaceAll('/', '.');
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    if (params.missingProperty !== undefined) {
      return { path: join(base, params.missingProperty), message: 'is required' };
    }
    if (params.additionalProperty !== undefined) {
      return { path: join(base, params.additionalProperty), message: 'is not an allowed property' };
    }
    return { path: base, message: error.message ?? 'is invalid' };
  });
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/** Renders issues as one line: `a: expected number; b: is required`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}
