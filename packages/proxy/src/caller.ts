import { AsyncLocalStorage } from 'node:async_hooks';
import type { Middleware, MiddlewareContext } from '@mcp-fw/core';

// The request a member handler serves, as middleware sees it: handlers get a `Context`, which
// has the caller's questions (elicit, sample, roots) but not its session or its HTTP headers.
// One middleware, run around every request, keeps the middleware view for the handler.
const current = new AsyncLocalStorage<MiddlewareContext>();

/** The middleware that makes {@link caller} work inside member handlers. */
export const callerMiddleware: Middleware = (ctx, next) => current.run(ctx, next);

/** The request being served (set by {@link callerMiddleware}); undefined outside one. */
export function caller(): MiddlewareContext | undefined {
  return current.getStore();
}

/** The caller's `Authorization: Bearer …` token (HTTP only). */
export function bearerOf(ctx: MiddlewareContext | undefined): string | undefined {
  const header = ctx?.header('authorization');
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
