import { ValidatorCompiler, type Validator } from '@mcp-fw/core/validation';
import { OutputSchemaError } from './errors.js';
import type { CallToolResult, JsonSchemaObject, Tool } from './types.js';

/**
 * Checks tool results against the `outputSchema` each tool listed, with core's validators (each
 * schema compiled once, on the first call of its tool).
 */
export class OutputChecks {
  readonly #compiler = new ValidatorCompiler();
  readonly #validators = new WeakMap<JsonSchemaObject, Validator>();

  /** Throws an {@link OutputSchemaError} naming the tool and each JSON path that fails. */
  async check(tool: Tool, result: CallToolResult): Promise<void> {
    const schema = tool.outputSchema;
    if (!schema || result.isError) return;
    if (result.structuredContent === undefined)
      throw new OutputSchemaError(tool.name, [
        {
          path: '$',
          message:
            'is missing: the tool declares an outputSchema but returned no structuredContent',
        },
      ]);
    let validator = this.#validators.get(schema);
    if (!validator) {
      validator = this.#compiler.compile(schema, schema as Record<string, unknown>);
      this.#validators.set(schema, validator);
    }
    // A copy: the validator fills in schema defaults, and the caller gets what the server sent.
    const validation = await validator(structuredClone(result.structuredContent));
    if (!validation.ok)
      throw new OutputSchemaError(
        tool.name,
        validation.issues.map((issue) => ({
          path: issue.path ? `$.${issue.path}` : '$',
          message: issue.message,
        })),
      );
  }
}
