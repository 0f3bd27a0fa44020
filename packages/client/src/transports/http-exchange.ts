import { readLimited } from './http-body.js';

// One HTTP request and its answer, as the Streamable HTTP transport needs them: the status, the
// headers it reads, the body as size-limited text (JSON answers) or as a byte stream (SSE). Two
// implementations, chosen by the package's `#http-fetch` import: over a web `fetch`
// (`fetchExchange`, every runtime, and any `fetch` given in the options) and, on Node, straight
// over node:http (fetch-node.ts), which reads a JSON answer without building a web `Response`
// and its body stream: on Node those cost about as much as the rest of the client's work per call.

/** What the transport sends: always a URL, a string body or none. */
export interface HttpExchangeInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

/** The answer to one exchange. Its body is read once: by `text`, `stream` or `discard`. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A response header (name in lower case), or null. */
  header(name: string): string | null;
  /**
   * The body as text; rejects with an `OversizeEventError` past `maxBytes` (announced by
   * Content-Length or read), with a `TypeError` when the body breaks off.
   */
  text(maxBytes: number): Promise<string>;
  /** The body as a byte stream (an SSE answer), or null when there is none. */
  stream(): ReadableStream<Uint8Array> | null;
  /** Lets go of the body unread. */
  discard(): Promise<void>;
}

/** Sends one request; rejects (a `TypeError`, as fetch does) when no answer comes. */
export type HttpExchange = (url: URL, init: HttpExchangeInit) => Promise<HttpAnswer>;

/** The exchange over a web `fetch`. */
export function fetchExchange(fetcher: typeof fetch): HttpExchange {
  return async (url, init) => answerOf(await fetcher(url, init));
}

function answerOf(response: Response): HttpAnswer {
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    text: (maxBytes) => readLimited(response, maxBytes),
    stream: () => response.body,
    discard: async () => {
      await response.body?.cancel();
    },
  };
}
