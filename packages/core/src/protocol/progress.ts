import type { RequestRecord } from './request-record.js';
import { featuresOf } from './eras/revisions.js';
import type { Scope } from './server-core.js';

/**
 * Progress of one request. Values must strictly increase per token (spec: "Progress"), so a
 * value that does not is dropped rather than sent; nothing is sent without a token.
 */
export class ProgressReporter {
  #last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly record: RequestRecord,
    private readonly scope: Scope,
  ) {}

  report(progress: number, total?: number, message?: string): void {
    const token = this.record.progressToken;
    if (token === undefined || !(progress > this.#last) || this.record.request.aborted) return;
    this.#last = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && featuresOf(this.record.protocolVersion).progressMessage)
      params.message = message;
    this.scope.engine.notify('notifications/progress', params, this.record.request);
  }
}
