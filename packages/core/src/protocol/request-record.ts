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
 * The era-independent description of one request. A legacy session and a stateless envelope are
 * two ways of building it (`Era.admit`); everything after dispatch reads only this, and asks
 * `era` where the eras differ. `era` is declared by the era contract (`eras/era.ts`), the layer
 * above this one, which adds it to this interface: records know nothing of eras.
 */
export interface RequestRecord {
  readonly request: InboundRequest;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: ClientInfo;
  readonly logLevel?: string;
  readonly progressToken?: string | number;
  /** What the transport's authentication attached (HTTP), if anything. */
  readonly auth?: unknown;
  /** The tool a check before dispatch already looked up for this `tools/call`, if one did. */
  readonly preflightTool?: PreflightTool;
}

/**
 * A tool looked up before dispatch: the HTTP preflight of a 2026-07-28 `tools/call` reads its
 * schema for `x-mcp-header` arguments, and hands what it found on so dispatch need not look again.
 */
export interface PreflightTool {
  /** The lookup asked; its answer stands only where dispatch would ask the same one. */
  readonly lookup: object;
  readonly name: string;
  /** What it found: `undefined` when it has no tool of that name. */
  readonly tool: object | undefined;
}

export function progressTokenOf(
  params: Record<string, unknown> | undefined,
): string | number | undefined {
  const meta = params?._meta as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
