import type { InboundRequest } from '../jsonrpc/index.js';

/** The client's `clientInfo`: its name, version and optional title. */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** What the client declared it can do (`elicitation`, `sampling`, `roots`, …). */
export type ClientCapabilities = Record<string, unknown>;

/**
 * The era-independent description of one request. A legacy session and (later) a 2026-07-28
 * envelope are two ways of building it; everything after dispatch reads only this.
 */
export interface RequestRecord {
  readonly request: InboundRequest;
  /** `legacy`: state from the session's handshake; `modern`: from this request's envelope. */
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: ClientInfo;
  readonly logLevel?: string;
  readonly progressToken?: string | number;
  /** What the transport's authentication attached (HTTP), if anything. */
  readonly auth?: unknown;
}

export function progressTokenOf(
  params: Record<string, unknown> | undefined,
): string | number | undefined {
  const meta = params?._meta as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
