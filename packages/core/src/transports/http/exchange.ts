/**
 * The two sides of one HTTP exchange, as the MCP endpoint needs them. Both the web-standard
 * (`Request` → `Response`) and the `node:http` front ends implement these, so one endpoint
 * implementation serves both and they behave identically.
 */
export interface HttpRequestView {
  readonly method: string;
  /** Path and query (the host part is not trusted; see the Host check). */
  readonly url: URL;
  /** `url.pathname`, which the node:http front end gets without building a `URL` for most requests. */
  readonly path: string;
  /** A header by lower-case name; several values joined with ", ". */
  header(name: string): string | undefined;
  /** The body as text, or `undefined` when it is longer than `limit` bytes (read no further). */
  text(limit: number): Promise<string | undefined>;
  /** Fires when the client goes away before the response is complete. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once when the client goes away before the response is complete: what
   * `signal` tells, without the `AbortController` node:http would otherwise build per request.
   */
  onAbort(listener: () => void): void;
  /** The client's network address, when the runtime exposes it (rate limits, audit). */
  readonly remoteAddress?: string;
}

export type HeaderMap = Record<string, string>;

/** An open `text/event-stream` response. */
export interface EventStreamSink {
  /** Writes raw SSE text (one or more complete events). */
  write(chunk: string): void;
  end(): void;
  /** True once the client disconnected or `end` was called. */
  readonly closed: boolean;
  onClose(listener: () => void): void;
}

export interface HttpResponder {
  /** A complete response. */
  send(status: number, headers: HeaderMap, body?: string): void;
  /** Starts a `text/event-stream` response (status 200). */
  stream(headers: HeaderMap): EventStreamSink;
}
