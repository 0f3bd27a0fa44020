/** Syslog severities, lowest first (spec: "Logging"). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
/** One of the syslog levels of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK = new Map<string, number>(LOG_LEVELS.map((level, i) => [level, i]));

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && RANK.has(value);
}

/** Whether a message at `level` passes the session's threshold (no threshold: everything). */
export function passes(level: LogLevel, threshold: string | undefined): boolean {
  if (threshold === undefined) return true;
  const min = RANK.get(threshold);
  return min !== undefined && RANK.get(level)! >= min;
}
