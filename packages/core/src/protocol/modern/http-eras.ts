import { ErrorCode } from '../error-codes.js';
import { hasEnvelope, missingEnvelope, MODERN_REVISIONS } from './envelope.js';
import {
  modernErrorStatus,
  modernPreflight,
  modernRetryAfter,
  type Refusal,
  type ToolLookup,
} from './http-ladder.js';

type Header = (name: string) => string | undefined;

/**
 * Per-request era classification on HTTP (protocol.md §3.2): the body's envelope decides; the
 * `MCP-Protocol-Version` header only cross-checks. Handed to the HTTP transport by the
 * composition root, so the transport routes without knowing what an envelope is.
 */
export function httpEraHooks(registry: () => ToolLookup) {
  return {
    classify(message: unknown, header: Header): 'legacy' | 'modern' | Refusal {
      if (Array.isArray(message)) {
        if (!message.some((m) => hasEnvelope((m as { params?: unknown } | null)?.params)))
          return 'legacy';
        return {
          status: 400,
          error: {
            code: ErrorCode.InvalidRequest,
            message: 'Invalid Request: a batch cannot carry 2026-07-28 requests',
          },
        };
      }
      if (hasEnvelope((message as { params?: unknown } | null)?.params)) return 'modern';
      const version = header('mcp-protocol-version')?.trim();
      if (version !== undefined && (MODERN_REVISIONS as readonly string[]).includes(version)) {
        return { status: 400, error: missingEnvelope().toJSON() };
      }
      return 'legacy';
    },
    preflight: (message: Record<string, unknown>, header: Header) =>
      modernPreflight(message, header, registry()),
    statusOf: modernErrorStatus,
    retryAfterOf: modernRetryAfter,
  };
}
