import type { Channel, JsonRpcId } from '@mcp-fw/core/transport';

/** The kinds of transport a client connects over. */
export type TransportKind = 'streamable-http' | 'http+sse' | 'stdio' | 'in-memory';

/**
 * What the client needs of a transport beyond core's {@link Channel}: the protocol revision its
 * headers carry, the transport's own way to cancel a request, and how to let go.
 */
export interface ClientTransport {
  readonly kind: TransportKind;
  readonly channel: Channel;
  /** The legacy revision negotiated by `initialize` (HTTP repeats it in a header). */
  setProtocolVersion?(version: string): void;
  /**
   * Forgets the legacy session the server no longer knows (HTTP 404), so that the next
   * `initialize` starts a new one; false when there was none.
   */
  forgetSession?(): boolean;
  /** Opens the legacy session's stream for messages tied to no request (Streamable HTTP). */
  openStream?(): void;
  /**
   * The request with this id was given up. Returns true when the transport's own act is the
   * cancel (2026-07-28 over HTTP: closing the response stream), false when the client must send
   * `notifications/cancelled`.
   */
  cancel?(id: JsonRpcId): boolean;
  /** Something worth telling the user that fails no request (a line of noise, a dropped stream). */
  onWarning?: (message: string) => void;
  /** Why the server went away, once it has (stdio: the exit status and the end of stderr). */
  describeEnd?(): string | undefined;
  /** What to add to a timeout's message: what the server sent instead of an answer. */
  diagnosis?(): string;
  /** Releases the transport: ends the session (legacy HTTP), stops the process (stdio). */
  close(): Promise<void>;
}

/** A JSON-RPC message as a transport peeks at it to route it. */
export interface Peeked {
  readonly id?: JsonRpcId;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

export function peek(frame: string): Peeked {
  try {
    const value = JSON.parse(frame) as unknown;
    return typeof value === 'object' && value !== null ? (value as Peeked) : {};
  } catch {
    return {};
  }
}

/** Whether a parsed message is the response to request `id`. */
export function answers(message: unknown, id: JsonRpcId): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return m.id === id && ('result' in m || 'error' in m);
}

/** The start of a body, for error messages. */
export function excerpt(text: string, length = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}
