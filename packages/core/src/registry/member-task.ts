import type { TaskMode } from '../decorators/index.js';
import { StartupError } from './errors.js';

/** How a tool's calls run as tasks, checked at startup. */
export interface MemberTask {
  readonly mode: TaskMode;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Becomes a task when the handler calls `ctx.runAsTask()`, not at once. */
  readonly deferred: boolean;
}

const MODES = new Set<TaskMode>(['forbidden', 'optional', 'required']);
const DEFAULT_TTL_MS = 60 * 60 * 1000;
const DEFAULT_POLL_MS = 1000;
const FORBIDDEN: MemberTask = Object.freeze({
  mode: 'forbidden',
  ttlMs: DEFAULT_TTL_MS,
  pollIntervalMs: DEFAULT_POLL_MS,
  deferred: false,
});

/** Reads `@Tool({ task })`; a bad value fails at startup naming the member and the fix. */
export function memberTask(value: unknown, origin: string): MemberTask {
  if (value === undefined || value === 'forbidden') return FORBIDDEN;
  if (typeof value === 'string' && MODES.has(value as TaskMode))
    return Object.freeze({ ...FORBIDDEN, mode: value as TaskMode });
  const options = value as {
    mode?: unknown;
    ttlMs?: unknown;
    pollIntervalMs?: unknown;
    deferred?: unknown;
  } | null;
  const positive = (n: unknown) => n === undefined || (Number.isInteger(n) && (n as number) > 0);
  if (
    typeof options !== 'object' ||
    options === null ||
    !(options.mode === undefined || MODES.has(options.mode as TaskMode)) ||
    !positive(options.ttlMs) ||
    !positive(options.pollIntervalMs) ||
    !(options.deferred === undefined || typeof options.deferred === 'boolean')
  ) {
    throw new StartupError(
      'INVALID_TASK',
      `${origin}: task must be 'forbidden', 'optional', 'required' or { mode?, ttlMs?: <integer ms > 0>, pollIntervalMs?: <integer ms > 0>, deferred?: boolean }; got ${JSON.stringify(value)}.`,
    );
  }
  return Object.freeze({
    mode: (options.mode as TaskMode | undefined) ?? 'optional',
    ttlMs: (options.ttlMs as number | undefined) ?? DEFAULT_TTL_MS,
    pollIntervalMs: (options.pollIntervalMs as number | undefined) ?? DEFAULT_POLL_MS,
    deferred: options.deferred === true,
  });
}
