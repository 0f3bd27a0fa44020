// `@mcp-fw/core/validation`: core's JSON Schema validators (Ajv, the class matching the schema's
// dialect, compiled once; an interpreter where code generation is forbidden) for code that checks
// values against schemas a peer sent — a client checking `structuredContent` against a tool's
// `outputSchema`. Runtime-neutral.

/**
 * Compiles a JSON Schema (draft-07 or 2020-12, chosen by its `$schema`) or a Standard Schema
 * into a validator, once; `formatIssues` renders a failed validation's issues as one line.
 *
 * @example
 * ```ts
 * import { ValidatorCompiler, formatIssues } from '@mcp-fw/core/validation';
 *
 * const check = new ValidatorCompiler().compile(schema, schema);
 * const result = await check(value);
 * if (!result.ok) throw new Error(formatIssues(result.issues));
 * ```
 */
export {
  ValidatorCompiler,
  setValidationEngine,
  formatIssues,
  type ValidationEngine,
  type Validator,
  type Validation,
  type ValidationIssue,
} from './schema/index.js';
export type { JsonSchema } from './schema/index.js';
