import * as ajv from 'ajv';
import * as ajv2020 from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { Validator as Interpreter } from '@cfworker/json-schema';
import type { InterpreterClass } from './interpreted.js';
import type { JsonSchema } from './json-schema.js';

// The libraries schema code loads: Ajv (JSON Schema validation), the interpreter that replaces it
// where code generation is forbidden (interpreted.ts), and the optional zod converters.
// This is the variant for every runtime but Node, which resolves `#schema-libraries` to
// libraries-node.ts (package.json `imports`) and loads them on first use instead.

type AjvClass = typeof import('ajv').Ajv;
type Ajv2020Class = typeof import('ajv/dist/2020.js').Ajv2020;
type AnyAjv = InstanceType<AjvClass> | InstanceType<Ajv2020Class>;

/** zod 4's converter (`zod/v4/core`), for zod schemas that do not convert themselves. */
export type Zod4Convert = (
  schema: unknown,
  options: { io: 'input' | 'output'; unrepresentable: 'any' },
) => JsonSchema;
/** zod-to-json-schema's converter, for zod 3 schemas. */
export type Zod3Convert = (schema: unknown, options?: unknown) => JsonSchema;

/** What both variants export: each is called when a schema first needs it. */
export interface SchemaLibraries {
  ajvDraft07(): AjvClass;
  ajvDraft2020(): Ajv2020Class;
  addFormats(ajv: AnyAjv): void;
  /** @cfworker/json-schema's validator, which needs no `new Function`. */
  interpreter(): InterpreterClass;
  /** `undefined` when zod is not installed. */
  zod4Convert(): Zod4Convert | undefined;
  /** `undefined` when zod-to-json-schema is not installed. */
  zod3Convert(): Zod3Convert | undefined;
}

// The optional packages, by a specifier bundlers leave alone: an app without them still bundles.
const optional = (name: string): Promise<Record<string, unknown> | undefined> =>
  import(name).catch(() => undefined);
const zodCore = await optional('zod/v4/core');
const zodToJsonSchema = await optional('zod-to-json-schema');

// A CommonJS module's namespace: its named exports, and module.exports as `default`.
const cjs = <T>(namespace: object, name: string): T =>
  ((namespace as Record<string, unknown>)[name] ??
    ((namespace as { default?: Record<string, unknown> }).default ?? {})[name]) as T;

export const libraries: SchemaLibraries = {
  ajvDraft07: () => cjs<AjvClass>(ajv, 'Ajv'),
  ajvDraft2020: () => cjs<Ajv2020Class>(ajv2020, 'Ajv2020'),
  addFormats: (instance) => cjs<(a: AnyAjv) => void>(ajvFormats, 'default')(instance),
  interpreter: () => Interpreter,
  zod4Convert: () => zodCore?.toJSONSchema as Zod4Convert | undefined,
  zod3Convert: () => zodToJsonSchema?.zodToJsonSchema as Zod3Convert | undefined,
};
