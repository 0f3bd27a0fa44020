// The pipe between `mcp-fw dev` and the child running the user's server: one JSON object per
// line on the child's stdin and stdout. It multiplexes any number of MCP connections (`s`),
// carrying each frame with the transport token (`o`) that ties answers to the frame they
// answer, so the supervisor can put every answer back where its request came from.

/** A transport token chosen by the supervisor; the child only echoes it. */
export type Origin = number;

/** Supervisor → child. */
export type ToChild =
  /**
   * Load the compiled entry (`shownAs`: the entry as the user named it, for messages;
   * `userDir`: the project, whose stack frames are quoted in load errors).
   */
  | { t: 'load'; entry: string; shownAs: string; userDir: string }
  /** Open connection `s`; `mode` as `McpFwServer.connect` takes it, `id` the transport session id. */
  | {
      t: 'open';
      s: number;
      mode?: 'legacy' | 'modern' | 'pin-on-first';
      id?: string;
      /** The client's channel is remote (HTTP): the child masks internal errors as served ones do. */
      remote?: boolean;
    }
  /** An inbound frame for connection `s`. */
  | { t: 'in'; s: number; f: string; o: Origin; peer?: { remoteAddress?: string } }
  /** The client of connection `s` will send nothing more. */
  | { t: 'ended'; s: number }
  /** Nobody will read the answer to the frame sent with `o`. */
  | { t: 'abandoned'; s: number; o: Origin }
  /** Close connection `s`, letting calls in flight finish within `grace` ms. */
  | { t: 'close'; s: number; grace: number };

/** Child → supervisor. */
export type FromChild =
  /** The entry loaded and exported a server. */
  | { t: 'ready' }
  /** The entry failed to load; `error` says why. */
  | { t: 'failed'; error: string }
  /** An outbound frame of connection `s`, with its route (absent when it relates to nothing). */
  | { t: 'out'; s: number; f: string; o?: Origin; final?: boolean }
  /** Everything for the inbound frame `o` has been sent. */
  | { t: 'settle'; s: number; o: Origin }
  /** Connection `s` closed its channel. */
  | { t: 'closed'; s: number };

/** One line of the pipe. */
export function encode(message: ToChild | FromChild): string {
  return `${JSON.stringify(message)}\n`;
}
