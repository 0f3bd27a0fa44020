import type { Icon, ToolAnnotations } from '../decorators/index.js';
import type { JsonSchema, Validator } from '../schema/index.js';
import type { MemberLimits } from './member-limits.js';
import type { MemberTask } from './member-task.js';

/** A tool resolved from its decorator: schemas converted, validators compiled, frozen. */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Record<string, unknown>;
  /** `Class.method`, for messages. */
  readonly origin: string;
  readonly validateInput: Validator;
  readonly validateOutput?: Validator;
  /** Declared `timeoutMs` and `rateLimit` (the server's defaults apply where absent). */
  readonly limits: MemberLimits;
  /** OAuth scopes a caller needs (own `scopes`, else the class's `@Scopes`; empty: none). */
  readonly scopes: readonly string[];
  /** Whether calls run as tasks, with the tasks' lifetime (`forbidden` unless declared). */
  readonly task: MemberTask;
  /** Middleware from `@Use` on the class and the member, outermost first (run by the protocol layer). */
  readonly middleware: readonly unknown[];
  /** Calls the user's method with validated arguments and the request context. */
  readonly handler: (args: unknown, ctx: unknown) => unknown;
}
