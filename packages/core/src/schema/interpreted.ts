import type { OutputUnit, Validator as CfValidator } from '@cfworker/json-schema';
import { isDraft07, isPlainObject, type JsonSchema } from './json-schema.js';

// JSON Schema validation without code generation, for runtimes that forbid `new Function`
// (Cloudflare Workers): @cfworker/json-schema walks the schema for each value instead of
// compiling it to JavaScript as Ajv does. Ajv stays the engine wherever code generation is
// allowed (it is about 10× faster on Node; docs/guide/deployment.md has the figures), so this
// file's job is to make the interpreter's answers the same as Ajv's: Ajv's `useDefaults`
// (defaults filled in before checking) and Ajv's first error, worded as Ajv words it.

/** One issue, as validator.ts reports them. */
export interface InterpretedIssue {
  readonly path: string;
  readonly message: string;
}

/** A check that never generates code: `undefined` when `value` is valid. */
export type InterpretedCheck = (value: unknown) => readonly InterpretedIssue[] | undefined;

/** The interpreter's class, passed in so that each runtime variant loads it its own way. */
export type InterpreterClass = typeof CfValidator;

/** Builds the check of `schema` with the interpreter. */
export function interpretedCheck(
  Interpreter: InterpreterClass,
  schema: JsonSchema,
): InterpretedCheck {
  const dialect = isDraft07(schema)
    ? /draft-04/.test(String(schema.$schema))
      ? '4'
      : '7'
    : '2020-12';
  // shortCircuit: stop at the first failure, as Ajv does with allErrors: false. The interpreter
  // marks up the schema it is given (non-enumerable `__absolute_uri__`…), and the registry's
  // schemas are frozen, so it gets a copy of its own.
  const interpreter = new Interpreter(structuredClone(schema) as never, dialect, true);
  return (value) => {
    fillDefaults(schema, schema, value, 0);
    const result = interpreter.validate(value);
    return result.valid ? undefined : [firstIssue(schema, result.errors)];
  };
}

// Ajv's `useDefaults` fills a missing property from its schema's `default`, in `properties`
// and in the array form of `items` (and 2020-12's `prefixItems`), following `$ref` and `allOf`
// into nested objects and arrays — but not into anyOf/oneOf/not branches, which Ajv leaves
// alone too. The depth cap keeps a recursive schema from looping on a cyclic `$ref`.
function fillDefaults(root: JsonSchema, schema: unknown, value: unknown, depth: number): void {
  if (!isPlainObject(schema) || depth > 64) return;
  if (typeof schema.$ref === 'string') {
    fillDefaults(root, resolvePointer(root, schema.$ref), value, depth + 1);
  }
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) fillDefaults(root, part, value, depth + 1);
  if (isPlainObject(value) && isPlainObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (value[key] === undefined && isPlainObject(sub) && 'default' in sub)
        value[key] = structuredClone(sub.default);
      if (value[key] !== undefined) fillDefaults(root, sub, value[key], depth + 1);
    }
  }
  if (Array.isArray(value)) {
    const positional = Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : Array.isArray(schema.items)
        ? schema.items
        : [];
    positional.forEach((sub, i) => {
      if (value[i] === undefined && i <= value.length && isPlainObject(sub) && 'default' in sub)
        value[i] = structuredClone(sub.default);
      if (value[i] !== undefined) fillDefaults(root, sub, value[i], depth + 1);
    });
    if (isPlainObject(schema.items))
      for (let i = positional.length; i < value.length; i++)
        fillDefaults(root, schema.items, value[i], depth + 1);
  }
}

// Only the document's own pointers (`#`, `#/$defs/x`, `#/definitions/x`): defaults behind a
// remote `$ref` are not filled (the interpreter validates those parts all the same). A `$ref`
// segment (the interpreter's keyword locations pass through them) continues at its target.
function resolvePointer(root: JsonSchema, ref: string, depth = 0): unknown {
  if (!ref.startsWith('#') || depth > 64) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    const here = node as Record<string, unknown> | undefined;
    node =
      key === '$ref' && typeof here?.$ref === 'string'
        ? resolvePointer(root, here.$ref, depth + 1)
        : typeof node === 'object' && node !== null
          ? here?.[key]
          : undefined;
  }
  return node;
}

// Keywords that only say "a part below failed": the part's own error follows and is the one
// Ajv reports.
const APPLICATORS = new Set([
  'properties',
  'patternProperties',
  'prefixItems',
  'items',
  'additionalItems',
  'allOf',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

// The interpreter lists the failing chain parent first; the first entry that is not an
// applicator is the failure itself. Its wording is Ajv's (validator.ts's `fromAjv`), so a client
// reads the same message whichever engine checked.
function firstIssue(root: JsonSchema, errors: readonly OutputUnit[]): InterpretedIssue {
  for (let i = 0; i < errors.length; i++) {
    const { keyword, keywordLocation, instanceLocation } = errors[i];
    const path = pathOf(instanceLocation);
    const rule = resolvePointer(root, keywordLocation);
    if (keyword === 'required') {
      const missing = /"(.*)"/.exec(errors[i].error)?.[1] ?? '';
      return { path: join(path, missing), message: 'is required' };
    }
    if (keyword === 'additionalProperties') {
      const extra = errors[i + 1];
      if (rule === false && extra)
        return { path: pathOf(extra.instanceLocation), message: 'is not an allowed property' };
      continue;
    }
    if ((keyword === 'items' || keyword === 'additionalItems') && rule === false) {
      const parent = resolvePointer(root, keywordLocation.replace(/\/[^/]*$/, ''));
      const allowed = isPlainObject(parent)
        ? ((Array.isArray(parent.prefixItems) ? parent.prefixItems : parent.items) as unknown[])
        : undefined;
      return { path, message: `must NOT have more than ${allowed?.length ?? 0} items` };
    }
    if (APPLICATORS.has(keyword)) continue;
    return { path, message: ajvMessage(keyword, rule, errors[i].error) };
  }
  return { path: '', message: 'is invalid' };
}

function ajvMessage(keyword: string, rule: unknown, fallback: string): string {
  const n = String(rule);
  switch (keyword) {
    case 'type':
      return `must be ${Array.isArray(rule) ? rule.join(',') : n}`;
    case 'minimum':
      return `must be >= ${n}`;
    case 'maximum':
      return `must be <= ${n}`;
    case 'exclusiveMinimum':
      return `must be > ${n}`;
    case 'exclusiveMaximum':
      return `must be < ${n}`;
    case 'multipleOf':
      return `must be multiple of ${n}`;
    case 'minLength':
      return `must NOT have fewer than ${n} characters`;
    case 'maxLength':
      return `must NOT have more than ${n} characters`;
    case 'minItems':
      return `must NOT have fewer than ${n} items`;
    case 'maxItems':
      return `must NOT have more than ${n} items`;
    case 'minProperties':
      return `must NOT have fewer than ${n} properties`;
    case 'maxProperties':
      return `must NOT have more than ${n} properties`;
    case 'pattern':
      return `must match pattern "${n}"`;
    case 'format':
      return `must match format "${n}"`;
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'const':
      return 'must be equal to constant';
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'not':
      return 'must NOT be valid';
    case 'false':
      return 'boolean schema is false';
    default:
      return fallback;
  }
}

function pathOf(instanceLocation: string): string {
  return instanceLocation
    .slice(2)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}
