import type { Attachment } from './call-table.js';
import type { ChildLink } from './child-link.js';

/**
 * 2026-07-28 input rounds: each `requestState` a child issued, so that the retry goes back to
 * the child whose handler is waiting, after a reload too (the call finishes on the old code).
 */
export class InputRounds {
  readonly #issuers = new Map<string, Attachment>();

  /** Notes the `requestState` of an `input_required` result from `at`. */
  issued(
    result: { readonly resultType?: unknown; readonly requestState?: unknown } | undefined,
    at: Attachment,
  ): void {
    const state = result?.resultType === 'input_required' ? result.requestState : undefined;
    if (typeof state === 'string') this.#issuers.set(state, at);
  }

  /** The connection that issued `state` (forgotten: a state is retried once). */
  take(state: unknown): Attachment | undefined {
    if (typeof state !== 'string') return undefined;
    const at = this.#issuers.get(state);
    this.#issuers.delete(state);
    return at;
  }

  /** Whether a round issued on `at` may still come back. */
  pendingOn(at: Attachment): boolean {
    for (const issuer of this.#issuers.values()) if (issuer === at) return true;
    return false;
  }

  forget(link: ChildLink): void {
    for (const [state, at] of this.#issuers) if (at.link === link) this.#issuers.delete(state);
  }
}
