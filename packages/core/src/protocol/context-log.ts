import { LOG_LEVELS, passes, type LogLevel } from './log-levels.js';
import type { RequestRecord } from './request-record.js';
import type { Scope } from './server-core.js';

/** `ctx.log.info(data, logger?)` and the other syslog levels. */
export type ContextLog = { [L in LogLevel]: (data: unknown, logger?: string) => void };

/**
 * Log messages to the client as `notifications/message`, filtered by the era's threshold (the
 * session's `logging/setLevel`, or the request's own level), sent on the request's stream.
 */
export function contextLog(record: RequestRecord, scope: Scope): ContextLog {
  const log = {} as ContextLog;
  for (const level of LOG_LEVELS) {
    log[level] = (data, logger) => {
      if (record.request.aborted || !passes(level, record.era.logThreshold(record, scope.session)))
        return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      scope.engine.notify('notifications/message', params, record.request);
    };
  }
  return log;
}
