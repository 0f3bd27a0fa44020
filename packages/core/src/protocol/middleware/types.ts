import type { CallToolResult, GetPromptResult, ResourceContents } from '../../registry/index.js';
import type { MiddlewareContext } from './context.js';

export type { MemberInfo } from './member-info.js';

/**
 * Runs the rest of the chain (the next middleware, at the end the handler) and resolves to its
 * result. Call it at most once; not calling it short-circuits the request.
 */
export type Next<TResult> = () => Promise<TResult>;

/**
 * One middleware step: do something before, call `next()` (or not), do something after. Return
 * `next()`'s result, a result of your own (a short-circuit or a replacement), or nothing after
 * calling `next()` (its result stands). Throw to fail the request: what a middleware throws is
 * answered exactly as if the handler had thrown it.
 */
export type Hook<TResult> = (
  ctx: MiddlewareContext,
  next: Next<TResult>,
) => TResult | undefined | Promise<TResult | undefined>;

/** The `{ contents }` of `resources/read`. */
export interface ReadResourceResult {
  contents: ResourceContents[];
}

/** A list result (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`). */
export type ListResult = Record<string, unknown> & { nextCursor?: string };

/** The `{ completion }` of `completion/complete`. */
export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/**
 * Middleware with a hook per kind of message; each hook is optional. For one request, a
 * middleware's `request` hook wraps its specific hook (`callTool`, …). `notification` wraps
 * every notification the client sends.
 *
 * @example
 * ```ts
 * const audit: MiddlewareHooks = {
 *   async callTool(ctx, next) {
 *     const result = await next();
 *     console.error(ctx.member?.name, result.isError ? 'failed' : 'ok');
 *     return result;
 *   },
 *   listTools: async (ctx, next) => {
 *     const list = await next();
 *     return { ...list, tools: (list.tools as { name: string }[]).filter((t) => !t.name.startsWith('internal_')) };
 *   },
 * };
 * ```
 */
export interface MiddlewareHooks {
  /**
   * Asked per request: while false, the middleware is skipped (and when every server middleware
   * is off, the chain costs nothing), e.g. telemetry with no tracer provider registered.
   */
  enabled?: () => boolean;
  /**
   * Called when the server stops serving a transport (stdin closed, SIGINT or SIGTERM, a
   * handle's `close()`), once the calls in flight have finished and before the process may
   * end: send what the middleware buffered, e.g. telemetry's spans and metrics. Waited for at
   * most 5 s (`McpFwServer.flush`).
   */
  flush?: () => void | Promise<void>;
  /** Around every request (every method, including `initialize`, `ping` and the lists). */
  request?: Hook<unknown>;
  /** Around every notification from the client (`notifications/initialized`, …). */
  notification?: Hook<void>;
  callTool?: Hook<CallToolResult>;
  readResource?: Hook<ReadResourceResult>;
  getPrompt?: Hook<GetPromptResult>;
  listTools?: Hook<ListResult>;
  listResources?: Hook<ListResult>;
  listResourceTemplates?: Hook<ListResult>;
  listPrompts?: Hook<ListResult>;
  complete?: Hook<CompleteResult>;
}

/**
 * Code around requests: a function `(ctx, next)` runs around every request and every
 * notification; an object of {@link MiddlewareHooks} picks the kinds it wraps.
 *
 * Order: server middleware (`createServer({ middleware })`, then `server.use`, in registration
 * order) is outermost; then the class's `@Use`, then the member's `@Use` (for the calls of that
 * member: tool calls, resource reads, prompt gets), each in the order written. The built-in
 * guardrails (rate limit, timeout, concurrency, output policy, audit) run inside all of them.
 *
 * @example
 * ```ts
 * const timing: Middleware = async (ctx, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.error(`${ctx.method} took ${(performance.now() - started).toFixed(1)} ms`);
 *   }
 * };
 * ```
 */
export type Middleware = Hook<unknown> | MiddlewareHooks;

/** The hook of each kind of request; every other method has only `request`. */
export type HookName = Exclude<keyof MiddlewareHooks, 'request' | 'notification' | 'enabled'>;

export const HOOK_OF_METHOD: ReadonlyMap<string, HookName> = new Map([
  ['tools/call', 'callTool'],
  ['resources/read', 'readResource'],
  ['prompts/get', 'getPrompt'],
  ['tools/list', 'listTools'],
  ['resources/list', 'listResources'],
  ['resources/templates/list', 'listResourceTemplates'],
  ['prompts/list', 'listPrompts'],
  ['completion/complete', 'complete'],
] as const);
