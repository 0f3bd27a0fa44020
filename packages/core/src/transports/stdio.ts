import * as nodeBuffer from 'node:buffer';
import type { Readable } from 'node:stream';
import type { Channel, ChannelSink, FrameRoute } from '../jsonrpc/index.js';

/** Where frames are written: stdout's own write, kept aside before stdout is guarded. */
export interface FrameOutput {
  /** Writes a chunk of frames; false when the stream is backed up (wait for `drain`). */
  write(chunk: string): boolean;
  /** Calls `listener` once the backed-up stream can take more. */
  once(event: 'drain', listener: () => void): unknown;
}

export interface StdioChannelOptions {
  readonly input: Readable;
  readonly output: FrameOutput;
  /** Longest accepted line, in bytes; longer lines are discarded as they stream in. */
  readonly maxMessageBytes: number;
}

const NEWLINE = 0x0a;
// Node ≥ 19.6; a runtime without it decodes every line as UTF-8.
const isAscii: (input: Buffer) => boolean = nodeBuffer.isAscii ?? (() => false);

/**
 * Newline-delimited JSON over a pair of streams (the MCP stdio transport). Reading never buffers
 * more than `maxMessageBytes` of one line; writes issued in the same tick (and the microtasks it
 * sets off) leave as one chunk, and reading pauses while the output is backed up.
 */
export class StdioChannel implements Channel {
  readonly #options: StdioChannelOptions;
  #sink?: ChannelSink;
  #parts: Buffer[] = [];
  #size = 0;
  #discarding = false;
  #queue: string[] = [];
  /** The queue holds notifications or requests sent on behalf of a request being served. */
  #holdsMessages = false;
  #flushScheduled = false;
  #blocked = false;
  #ended = false;
  #drained?: () => void;
  readonly #flushNow = () => this.#flush();

  constructor(options: StdioChannelOptions) {
    this.#options = options;
  }

  start(sink: ChannelSink): void {
    this.#sink = sink;
    const { input } = this.#options;
    input.on('data', (chunk: Buffer) => this.#read(chunk));
    input.once('end', () => this.#end());
    input.once('close', () => this.#end());
    input.once('error', () => this.#end());
  }

  send(frame: string, route?: FrameRoute): void {
    if (route?.final && this.#holdsMessages && !this.#blocked) {
      // Official clients drop a request's progress/log notifications that arrive in the same
      // read as its response; writing them first, on their own, gives the response its own read.
      this.#flush();
    }
    if (route && !route.final) this.#holdsMessages = true;
    this.#queue.push(frame);
    if (!this.#flushScheduled && !this.#blocked) {
      this.#flushScheduled = true;
      // After this tick's microtasks, not on the loop's next check phase: frames sent in one
      // turn (a read chunk's answers, every promise continuation they set off) still leave as
      // one chunk, and a frame sent alone goes out before the loop turns, without an Immediate
      // and the loop's immediate handle toggled for every call made one at a time (with the
      // shared timeout timer: 28 % fewer instructions per such call, bench/README).
      process.nextTick(this.#flushNow);
    }
  }

  async close(): Promise<void> {
    this.#flush();
    if (this.#blocked) await new Promise<void>((resolve) => (this.#drained = resolve));
  }

  #flush(): void {
    this.#flushScheduled = false;
    this.#holdsMessages = false;
    if (this.#blocked || this.#queue.length === 0) return;
    const chunk = this.#queue.length === 1 ? `${this.#queue[0]}\n` : `${this.#queue.join('\n')}\n`;
    this.#queue = [];
    if (!this.#options.output.write(chunk)) {
      this.#blocked = true;
      this.#options.input.pause();
      this.#options.output.once('drain', () => {
        this.#blocked = false;
        if (!this.#ended) this.#options.input.resume();
        this.#flush();
        if (!this.#blocked) this.#drained?.();
      });
    }
  }

  #read(chunk: Buffer): void {
    const limit = this.#options.maxMessageBytes;
    // Checked once per chunk, when a whole line is first found in it: ASCII text reads the same
    // as Latin-1, which V8 copies instead of decoding. A chunk that only carries part of a long
    // line is never scanned.
    let encoding: 'latin1' | 'utf8' | undefined;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (newline !== -1 && this.#size === 0 && !this.#discarding && end - start <= limit) {
        // The whole line is in this chunk (the usual case): decoded in place, without the
        // Buffer view a part would need.
        encoding ??= isAscii(chunk) ? 'latin1' : 'utf8';
        this.#emitText(chunk.toString(encoding, start, end));
        start = newline + 1;
        continue;
      }
      this.#size += end - start;
      if (this.#size > limit) {
        this.#discarding = true;
        this.#parts = [];
      } else if (end > start) {
        this.#parts.push(start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end));
      }
      if (newline === -1) return;
      this.#emitLine();
      start = newline + 1;
    }
  }

  #emitLine(): void {
    const size = this.#size;
    const parts = this.#parts;
    this.#parts = [];
    this.#size = 0;
    if (this.#discarding) {
      this.#discarding = false;
      this.#sink?.oversize(size, this.#options.maxMessageBytes);
      return;
    }
    this.#emitText(
      parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8'),
    );
  }

  #emitText(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    this.#sink?.frame(line);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#size > 0 || this.#discarding) this.#emitLine();
    this.#sink?.ended();
  }
}
