import { LEGACY } from './legacy/era.js';
import {
  modernErrorStatus,
  modernPreflight,
  modernRetryAfter,
  type ToolLookup,
} from './modern/http-ladder.js';
import { selectHttpEra } from './select.js';

type Header = (name: string) => string | undefined;

/**
 * What the HTTP transport asks of the eras, handed to it by the composition root so that it
 * routes without knowing what an envelope is: which era a POST belongs to (decided once, here),
 * the era its sessions are served in, the checks a stateless request passes before dispatch (its
 * envelope is then handed on to the record), and the HTTP status and `Retry-After` of a
 * stateless error answer. The eras go to the transport as objects, and come back with `connect`.
 */
export function httpEraHooks(registry: () => ToolLookup) {
  return {
    classify: selectHttpEra,
    sessions: LEGACY,
    preflight: (message: Record<string, unknown>, header: Header) =>
      modernPreflight(message, header, registry()),
    statusOf: modernErrorStatus,
    retryAfterOf: modernRetryAfter,
  };
}
