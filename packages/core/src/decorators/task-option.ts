/**
 * Whether a tool's calls may run as tasks — long work the client polls instead of waiting on:
 * `'forbidden'` (the default: always answered at once), `'optional'` (a task where the caller
 * can take one: under 2025-11-25 when the client asks for it, under 2026-07-28 whenever the
 * client declares the tasks extension), `'required'` (always a task; callers that cannot take
 * one are refused with the revision's error).
 */
export type TaskMode = 'forbidden' | 'optional' | 'required';

/**
 * The `task` option of `@Tool`: a {@link TaskMode}, or the mode with the task's lifetime.
 *
 * @example
 * ```ts
 * class Releases {
 *   @Tool({ description: 'Builds and ships a release', task: { mode: 'required', ttlMs: 3_600_000, pollIntervalMs: 2_000 } })
 *   async ship({ version }: { version: string }, ctx: Context) {
 *     const ok = await ctx.elicit(`Ship ${version}?`, z.object({ confirm: z.boolean() }));
 *     return ok.action === 'accept' && ok.content.confirm ? `shipped ${version}` : 'not shipped';
 *   }
 * }
 * ```
 */
export interface TaskOptions {
  /** Default `'optional'` when an object is given. */
  readonly mode?: TaskMode;
  /** How long the task and its result are kept from its creation, in ms (default 1 hour). */
  readonly ttlMs?: number;
  /** How often the client should poll, in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /**
   * The call starts in its request, where it may ask the client through input rounds, and
   * becomes a task only when the handler calls `ctx.runAsTask()` (default false: a task from
   * the start).
   */
  readonly deferred?: boolean;
}
