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
  const header = ctx?.header('authorization');
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
