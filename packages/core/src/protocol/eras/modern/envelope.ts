import { JsonRpcError } from '../../../jsonrpc/index.js';
import { showClientValue } from '../../client-value.js';
import { ErrorCode } from '../../error-codes.js';
import { isLogLevel, LOG_LEVELS } from '../../log-levels.js';
import type { ClientCapabilities, ClientInfo } from '../../request-record.js';

/** The `_meta` keys of the 2026-07-28 request and result envelopes. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Revisions served statelessly, through the per-request envelope. */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

/** Whether `version` is a revision served statelessly, through the per-request envelope. */
export function isModernRevision(version: string): boolean {
  return (MODERN_REVISIONS as readonly string[]).includes(version);
}

/** The `_meta` a client puts on every stateless request (what the test client sends). */
export function requestEnvelope(
  protocolVersion: string,
  clientCapabilities: ClientCapabilities,
  clientInfo: ClientInfo,
): Record<string, unknown> {
  return {
    [META.protocolVersion]: protocolVersion,
    [META.clientCapabilities]: clientCapabilities,
    [META.clientInfo]: clientInfo,
  };
}

export interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: ClientInfo;
  readonly logLevel?: string;
}

/** A request's `params._meta` when it is an object. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** Whether a request carries the modern envelope (protocol.md §1: the era is read off the body). */
export function hasEnvelope(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

function envelopeError(key: string, problem: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `Invalid _meta envelope for protocol revision 2026-07-28: ${key}: ${problem}`,
    {
      envelope: { key, problem },
    },
  );
}

export function missingEnvelope(): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `Request is missing the required _meta envelope for protocol revision 2026-07-28 (${META.protocolVersion}, ${META.clientCapabilities})`,
    { envelope: { missing: ['_meta'] } },
  );
}

/** Rung 1 of the ladder: the envelope's shape (required keys present, logLevel valid) → -32602. */
export function readEnvelope(params: unknown): Envelope {
  const meta = metaOf(params);
  if (!meta) throw missingEnvelope();
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== 'string')
    throw envelopeError(
      META.protocolVersion,
      protocolVersion === undefined ? 'missing' : 'must be a string',
    );
  const clientCapabilities = meta[META.clientCapabilities];
  if (clientCapabilities === undefined) throw envelopeError(META.clientCapabilities, 'missing');
  if (
    typeof clientCapabilities !== 'object' ||
    clientCapabilities === null ||
    Array.isArray(clientCapabilities)
  ) {
    throw envelopeError(META.clientCapabilities, 'must be an object');
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw envelopeError(
      META.logLevel,
      `expected one of ${LOG_LEVELS.map((l) => `"${l}"`).join('|')}`,
    );
  }
  const clientInfo = meta[META.clientInfo];
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    clientInfo:
      typeof clientInfo === 'object' && clientInfo !== null
        ? (clientInfo as ClientInfo)
        : undefined,
    logLevel: logLevel as string | undefined,
  };
}

export function unsupportedVersion(requested: unknown): JsonRpcError {
  // `requested` is a string in the schema: anything else is echoed as its JSON, quoted short
  // (an object may be nested too deep to serialise at all).
  const shown = showClientValue(requested);
  return new JsonRpcError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${shown}`,
    {
      supported: [...MODERN_REVISIONS],
      requested: requested === undefined ? undefined : shown,
    },
  );
}

/** Rung 3: the claimed version must be a modern one we serve → -32022. */
export function checkVersion(version: string): void {
  if (!isModernRevision(version)) throw unsupportedVersion(version);
}

/** Rungs 1 and 3 for one request: its envelope, read and checked (what a record is built from). */
export function servedEnvelope(params: unknown): Envelope {
  const envelope = readEnvelope(params);
  checkVersion(envelope.protocolVersion);
  return envelope;
}
