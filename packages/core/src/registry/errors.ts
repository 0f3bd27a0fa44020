import { formatIssues, type ValidationIssue } from '../schema/index.js';
import {
  findUnserialisable,
  shortPath,
  unserialisableFallback,
  type Unserialisable,
} from './unserialisable.js';

/**
 * An error whose message is meant for the client. Thrown from a tool it becomes an `isError`
 * result (as any error thrown by a tool does); from other handlers it keeps its message on the
 * wire where an unexpected error would be reported as an internal error.
 *
 * @example
 * ```ts
 * if (!order) throw new UserError(`No order ${orderId}; order ids look like ORD-1001`);
 * ```
 */
export class UserError extends Error {
  override name = 'UserError';
}

/** Codes of the errors the registry raises at startup, each with its own fix in the message. */
export type StartupErrorCode =
  | 'INVALID_NAME'
  | 'DUPLICATE_NAME'
  | 'MISSING_SCHEMA'
  | 'INVALID_SCHEMA'
  | 'INVALID_PROVIDER'
  | 'CONFLICTING_OPTIONS'
  | 'INVALID_LIMIT'
  | 'INVALID_TASK'
  | 'INVALID_SCOPES'
  | 'INVALID_MOUNT'
  | 'INVALID_TRANSFORM'
  | 'INVALID_SKILL'
  | 'INVALID_VIEW';

/**
 * A problem in the decorated classes, found while the registry is built: the server refuses to
 * start, and the message names the class, the member and the fix.
 *
 * @example
 * ```ts
 * try {
 *   createServer({ name: 'x', version: '1', providers: [Broken] });
 * } catch (error) {
 *   if (error instanceof StartupError) console.error(error.code, error.message); // 'DUPLICATE_NAME' ...
 * }
 * ```
 */
export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    readonly code: StartupErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The arguments of a call did not match the member's input schema. */
export class InvalidArgumentsError extends Error {
  override name = 'InvalidArgumentsError';
  constructor(
    readonly toolName: string,
    readonly issues: readonly ValidationIssue[],
    readonly kind: 'tool' | 'prompt' | 'resource' | 'elicitation answer' = 'tool',
  ) {
    super(
      kind === 'elicitation answer'
        ? `Invalid elicitation answer: ${formatIssues(issues)}`
        : `Invalid arguments for ${kind} ${toolName}: ${formatIssues(issues)}`,
    );
  }
}

/**
 * No resource has this URI. Throw it from a template handler when the variables name nothing;
 * the client gets the revision's not-found error with the URI in `data`.
 *
 * @example
 * ```ts
 * @Resource('db://orders/{id}')
 * order({ id }: { id: string }) {
 *   const row = db.find(id);
 *   if (!row) throw new ResourceNotFoundError(`db://orders/${id}`);
 *   return JSON.stringify(row);
 * }
 * ```
 */
export class ResourceNotFoundError extends Error {
  override name = 'ResourceNotFoundError';
  constructor(
    readonly uri: string,
    detail?: string,
  ) {
    super(`Resource not found: ${uri}${detail ? ` (${detail})` : ''}`);
  }
}

/** A tool handler threw; `cause` is what it threw. */
export class ToolExecutionError extends Error {
  override name = 'ToolExecutionError';
  constructor(
    readonly toolName: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** A tool returned structured output that does not match its own output schema (a server bug). */
export class OutputValidationError extends Error {
  override name = 'OutputValidationError';
  constructor(
    readonly toolName: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(
      `Tool ${toolName} returned output that does not match its outputSchema: ${formatIssues(issues)}`,
    );
  }
}

/**
 * A view (`@View`) produced a document a host could not render: not HTML, or over its
 * `maxBytes`. A server bug, answered like invalid output: the message names the view and fix.
 */
export class ViewDocumentError extends Error {
  override name = 'ViewDocumentError';
}

const LABEL = { tool: 'Tool', prompt: 'Prompt', resource: 'Resource' } as const;

/**
 * A handler returned something that cannot be written as JSON (a BigInt, a circular object, a
 * throwing `toJSON`). The message names the member, the JSONPath into what it returned (`$` is
 * the returned value) and the fix; a tool call answers it as an `isError` result.
 */
export class UnserialisableResultError extends Error {
  override name = 'UnserialisableResultError';
  readonly where: Unserialisable;
  constructor(
    readonly kind: 'tool' | 'prompt' | 'resource',
    /** The tool or prompt name, or the resource URI. */
    readonly member: string,
    value: unknown,
    override readonly cause: unknown,
  ) {
    const where = findUnserialisable(value) ?? unserialisableFallback(cause);
    const who = kind === 'resource' ? `${LABEL[kind]} ${member}` : `${LABEL[kind]} "${member}"`;
    super(
      `${who} returned a result that cannot be sent as JSON: ${where.problem} at ${shortPath(where.path)}. Fix: ${where.fix}.`,
    );
    this.where = where;
  }
}
