import type { Validation } from '../schema/index.js';
import type { CallToolResult } from './content.js';
import { InvalidArgumentsError, OutputValidationError, ToolExecutionError } from './errors.js';
import { normaliseToolResult } from './normalise-tool-result.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * Validates the arguments, runs the handler and normalises its result. Failures are thrown as
 * the registry's typed errors; the protocol layer decides how each looks on the wire.
 */
export async function invokeTool(tool: ToolDefinition, rawArgs: unknown, ctx: unknown): Promise<CallToolResult> {
  const input = await tool.validateInput(rawArgs ?? {});
  if (!input.ok) throw new InvalidArgumentsError(tool.name, input.issues);
  let value: unknown;
  try {
    value = await tool.handler(input.value, ctx);
  } catch (error) {
    throw new ToolExecutionError(tool.name, error);
  }
  const result = normaliseToolResult(value, tool.validateOutput !== undefined);
  if (tool.validateOutput && result.structuredContent !== undefined && !result.isError) {
    const output: Validation = await tool.validateOutput(result.structuredContent);
    if (!output.ok) throw new OutputValidationError(tool.name, output.issues);
  }
  return result;
}
