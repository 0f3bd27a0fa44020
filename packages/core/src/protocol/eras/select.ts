import type { InboundRequest } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';
import type { Era } from './era.js';
import { LEGACY } from './legacy/era.js';
import { hasEnvelope, missingEnvelope, MODERN_REVISIONS } from './modern/envelope.js';
import { MODERN } from './modern/era.js';
import type { Refusal } from './modern/http-ladder.js';

/**
 * How a connection decides its era (protocol.md §1): stdio pins on the first exchange that is
 * not `server/discover`; an HTTP session is legacy by construction; the stateless HTTP path is
 * modern by construction.
 */
export type EraMode = 'pin-on-first' | 'legacy' | 'modern';

/**
 * How a connection that has not decided its era yet answers what fails before it decides: as
 * the legacy era does (the error codes every client reads).
 */
export const UNDECIDED: Era = LEGACY;

/**
 * The mode of a connection that serves `era` from its start, as `Servable.connect` takes it: by
 * name, because a relay (`mcp-fw dev`) carries it to another process.
 */
export function modeOf(era: Pick<Era, 'stateless'>): EraMode {
  return era.stateless ? 'modern' : 'legacy';
}

/** The era a connection serves from its start, or undefined when its first exchange decides. */
export function eraOfMode(mode: EraMode): Era | undefined {
  if (mode === 'legacy') return LEGACY;
  return mode === 'modern' ? MODERN : undefined;
}

/**
 * The one selection rule, for stdio and HTTP alike: a request belongs to the stateless era when
 * its body carries the envelope (the version in `params._meta`), else to the legacy era.
 */
function eraOfBody(params: unknown): Era {
  return hasEnvelope(params) ? MODERN : LEGACY;
}

/**
 * A request on a connection that has not decided its era yet (stdio): its era, and whether it
 * decides the connection's. `server/discover` is a probe answered before the real session: it
 * decides nothing, and exists only in the stateless era (without an envelope it is refused there).
 */
export function selectEra(request: InboundRequest): { era: Era; pins: boolean } {
  if (request.method === 'server/discover') return { era: MODERN, pins: false };
  return { era: eraOfBody(request.params), pins: true };
}

type Header = (name: string) => string | undefined;

/**
 * HTTP decides per request, from the body (protocol.md §3.2); the `MCP-Protocol-Version` header
 * only cross-checks: a body without an envelope whose header names a stateless revision is
 * refused. Batches are legacy only.
 */
export function selectHttpEra(message: unknown, header: Header): Era | Refusal {
  if (Array.isArray(message)) {
    if (!message.some((m) => hasEnvelope((m as { params?: unknown } | null)?.params)))
      return LEGACY;
    return {
      status: 400,
      error: {
        code: ErrorCode.InvalidRequest,
        message: 'Invalid Request: a batch cannot carry 2026-07-28 requests',
      },
    };
  }
  const era = eraOfBody((message as { params?: unknown } | null)?.params);
  if (era === MODERN) return era;
  const version = header('mcp-protocol-version')?.trim();
  if (version !== undefined && (MODERN_REVISIONS as readonly string[]).includes(version))
    return { status: 400, error: missingEnvelope().toJSON() };
  return LEGACY;
}
