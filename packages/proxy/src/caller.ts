import type { MiddlewareContext, MiddlewareHooks } from '@mcp-fw/core';

// The request a member handler serves, as middleware sees it: handlers get a `Context`, which
// has the caller's questions (elicit, sample, roots) but not its session or its HTTP headers.
// Middleware around each call files its view under the call's arguments object, which core
// hands the handler as it is (a JSON Schema validator checks it in place, never copies it).
// Not AsyncLocalStorage: on Node 20 it turns on promise hooks for the whole process, which
// cost more than the rest of a forwarded call.
const callers = new WeakMap<object, MiddlewareContext>();

function file(ctx: MiddlewareContext, next: () => Promise<unknown>): Promise<unknown> {
  if (typeof ctx.arguments !== 'object' || ctx.arguments === null) ctx.arguments = {};
  callers.set(ctx.arguments as object, ctx);
  return next();
}

/** The middleware that makes {@link callerOf} work inside member handlers. */
export const callerMiddleware: MiddlewareHooks = {
  callTool: file as MiddlewareHooks['callTool'],
  getPrompt: file as MiddlewareHooks['getPrompt'],
  readResource: file as MiddlewareHooks['readResource'],
};

/** The request whose handler received `args` (filed by {@link callerMiddleware}). */
export function callerOf(args: unknown): MiddlewareContext | undefined {
  return typeof args === 'object' && args !== null ? callers.get(args) : undefined;
}

/** The caller's `Authorization: Bearer …` token (HTTP only). */
export function bearerOf(ctx: MiddlewareContext | undefined): string | undefined {
  return bearerOfHeader(ctx?.header('authorization'));
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerOfHeader(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

// A call that may become a task (`ctx.runAsTask()`), by its handler's `Context`. Two ways:
// - `follow` (the default): once the upstream made a task of it; a question the upstream's task
//   asks first makes it one, so that the question reaches the caller through the task rather
//   than as an input round of a request that is answered with the task meanwhile;
// - `askFirst` (a deferred tool): the upstream's questions are input rounds of the request, and
//   the call becomes a task once the caller answered one (a tool that gathers input, then works).
interface Becoming {
  readonly become: () => Promise<unknown>;
  readonly askFirst: boolean;
  started?: Promise<unknown>;
}
const becoming = new WeakMap<object, Becoming>();

/** Files how `ctx`'s call becomes a task (done at most once, whoever asks first). */
export function fileBecomeTask(
  ctx: object,
  become: () => Promise<unknown>,
  { askFirst = false }: { readonly askFirst?: boolean } = {},
): void {
  becoming.set(ctx, { become, askFirst });
}

/** Makes `ctx`'s call a task, where it may become one; resolves once it is (or cannot be). */
export function becomeTask(ctx: object): Promise<unknown> | undefined {
  const entry = becoming.get(ctx);
  if (entry) entry.started ??= entry.become();
  return entry?.started;
}

/** The upstream made a task of `ctx`'s call: it becomes one too, unless it asks first. */
export function upstreamTaskCreated(ctx: object): void {
  if (becoming.get(ctx)?.askFirst !== true) void becomeTask(ctx);
}

/**
 * Before an upstream question is asked of `ctx`'s caller: resolves once the call is where the
 * question should reach it (a task, or still its request). `inTask`: the upstream asked it from
 * its own task.
 */
export function beforeQuestion(ctx: object, inTask: boolean): Promise<unknown> | undefined {
  const entry = becoming.get(ctx);
  if (entry?.askFirst === true && entry.started === undefined) return undefined;
  return inTask ? becomeTask(ctx) : entry?.started;
}

/** The caller answered an upstream question of `ctx`'s call: an ask-first call becomes a task. */
export function afterAnswer(ctx: object): Promise<unknown> | undefined {
  return becoming.get(ctx)?.askFirst === true ? becomeTask(ctx) : undefined;
}
