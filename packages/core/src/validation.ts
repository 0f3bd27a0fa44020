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

/**
 * The YAML frontmatter of a Skills-extension `SKILL.md` (SEP-2640), split and parsed the way
 * hosts do (BOM and CRLF removed, YAML 1.2 core schema), so a client can compare it with the
 * `frontmatter` of the skill's `skills/list` entry; or a message saying why it is not one.
 *
 * @example
 * ```ts
 * import { readFrontmatter } from '@mcp-fw/core/validation';
 *
 * const read = readFrontmatter('---\nname: pdf\ndescription: Fill PDFs\n---\nBody');
 * if ('problem' in read) throw new Error(read.problem);
 * const name = read.frontmatter.name; // 'pdf'
 * ```
 */
export { readFrontmatter } from './registry/skill-frontmatter.js';
