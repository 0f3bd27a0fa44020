import { LOG_LEVELS, passes, type LogLevel } from './log-levels.js';
import type { RequestRecord } from './request-record.js';
import type { Scope } from './server-core.js';

/** `ctx.log.info(data, logger?)` and the other syslog levels. */
export type ContextLog = { [L in LogLevel]: (data: unknown, logger?: string) => void };

// Legacy: the session's setLevel (everything before one is set). 2026-07-28: the request's own
// logLevel, and nothing at all without one (protocol.md §2.1 "Logging").
const SILENT = 'silent';
function threshold(record: RequestRecord, scope: Scope): string | undefined {
  return record.era === 'modern' ? (record.logLevel ?? SILENT) : scope.session.logLevel;
}

/**
 * Log messages to the client as `notifications/message`, filtered by the session's
 * `logging/setLevel` threshold (everything before one is set), sent on the request's stream.
 */
export function contextLog(record: RequestRecord, scope: Scope): ContextLog {
  const log = {} as ContextLog;
  for (const level of LOG_LEVELS) {
    log[level] = (data, logger) => {
      if (record.request.aborted || !passes(level, threshold(record, scope))) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      scope.engine.notify('notifications/message', params, record.request);
    };
  }
  return log;
}
