import { ValidatorCompiler, type JsonSchema } from '../schema/index.js';
import { memberLimits } from './member-limits.js';
import { deepFreeze } from './member-method.js';
import { memberTask } from './member-task.js';
import type { ToolDefinition } from './tool-definition.js';

const compiler = new ValidatorCompiler();
const NONE = Object.freeze([]) as readonly never[];

/**
 * A tool the framework adds itself (`server.exposeAsTools`, `server.searchTools`), named after
 * the option that made it (`origin`): no scopes, no middleware of its own, default limits.
 */
export function builtInTool(
  origin: string,
  name: string,
  description: string,
  inputSchema: JsonSchema,
  handler: (args: Record<string, unknown>, ctx: unknown) => unknown,
): ToolDefinition {
  const from = `${origin} (${name})`;
  return Object.freeze<ToolDefinition>({
    name,
    description,
    inputSchema: deepFreeze(inputSchema),
    origin: from,
    validateInput: compiler.compile(inputSchema, inputSchema),
    limits: memberLimits({}, from),
    scopes: NONE,
    task: memberTask(undefined, from),
    middleware: NONE,
    handler: (args: unknown, ctx: unknown) => handler(args as Record<string, unknown>, ctx),
  });
}
