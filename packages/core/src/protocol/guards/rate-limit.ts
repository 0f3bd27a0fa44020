import type { RateLimit } from '../../registry/index.js';
import { sessionKey, type GuardedCall } from './call.js';
import type { Identify } from './identity.js';
import { LimitError } from './limit-error.js';
import type { RateLimitStore } from './rate-limit-store.js';

/** Counts tool calls against their rate limit; a call over it is refused before it runs. */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly identify: Identify,
  ) {}

  async check(call: GuardedCall, limit: RateLimit): Promise<void> {
    const hit = this.store.hit(this.#key(call, limit), limit.max, limit.perMs);
    const waitMs = typeof hit === 'number' ? hit : await hit;
    if (waitMs <= 0) return;
    const who = limit.key === 'global' ? '' : ` per ${limit.key ?? 'session'}`;
    throw new LimitError(
      'rateLimit',
      `Rate limit exceeded: tool ${call.name} allows ${limit.max} call${limit.max === 1 ? '' : 's'} per ${duration(limit.perMs)}${who} (rateLimit). Retry after ${Math.ceil(waitMs / 1000)} s.`,
      waitMs,
    );
  }

  #key(call: GuardedCall, limit: RateLimit): string {
    switch (limit.key) {
      case 'global':
        return call.name;
      case 'identity':
        return `${call.name}\0${this.identify(call.record.auth) ?? sessionKey(call)}`;
      case 'address':
        return `${call.name}\0${call.record.request.remoteAddress ?? sessionKey(call)}`;
      default:
        return `${call.name}\0${sessionKey(call)}`;
    }
  }
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
