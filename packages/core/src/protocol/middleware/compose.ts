/**
 * One step of a chain: work around `next()`, which runs the rest of the chain and returns its
 * result as it comes (a value, or a promise of one).
 */
export type Step<TCtx> = (ctx: TCtx, next: () => unknown) => unknown;

/**
 * Runs `inner` inside `steps`, first step outermost. Nothing here makes a promise: a chain of
 * synchronous steps around a synchronous `inner` answers synchronously (the built-in guardrails
 * rely on it); user middleware gets promises from its adapter ({@link Pipeline}).
 */
export function compose<TCtx>(
  steps: readonly Step<TCtx>[],
  ctx: TCtx,
  inner: (ctx: TCtx) => unknown,
): unknown {
  return stepAt(steps, 0, ctx, inner);
}

function stepAt<TCtx>(
  steps: readonly Step<TCtx>[],
  index: number,
  ctx: TCtx,
  inner: (ctx: TCtx) => unknown,
): unknown {
  if (index === steps.length) return inner(ctx);
  return steps[index](ctx, () => stepAt(steps, index + 1, ctx, inner));
}
