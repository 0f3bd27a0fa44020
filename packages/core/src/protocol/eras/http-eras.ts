import { MODERN } from './modern/era.js';
import {
  modernErrorStatus,
  modernPreflight,
  modernRetryAfter,
  type Refusal,
  type ToolLookup,
} from './modern/http-ladder.js';
import { selectHttpEra } from './select.js';

type Header = (name: string) => string | undefined;

/**
 * What the HTTP transport asks of the eras, handed to it by the composition root so that it
 * routes without knowing what an envelope is: which era a POST belongs to (decided once, here),
 * the checks a stateless request passes before dispatch (its envelope is then handed on to the
 * record), and the HTTP status and `Retry-After` of a stateless error answer.
 */
export function httpEraHooks(registry: () => ToolLookup) {
  return {
    classify(message: unknown, header: Header): 'legacy' | 'modern' | Refusal {
      const era = selectHttpEra(message, header);
      if ('status' in era) return era;
      return era === MODERN ? 'modern' : 'legacy';
    },
    preflight: (message: Record<string, unknown>, header: Header) =>
      modernPreflight(message, header, registry()),
    statusOf: modernErrorStatus,
    retryAfterOf: modernRetryAfter,
  };
}
