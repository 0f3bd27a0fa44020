import type { EventStreamSink } from './exchange.js';
import { sseEvent } from './sse.js';

/** One frame of a request stream, as the instance running the request publishes it once lost. */
export interface TailFrame {
  /** Event id. */
  readonly i?: string;
  /** The frame. */
  readonly f: string;
  /** The request's answer: nothing follows. */
  readonly e?: boolean;
}

/**
 * The live end of a request stream that runs on another instance: frames published after the
 * client lost the stream, relayed to a `Last-Event-ID` GET here. Subscribed before the stored
 * events are read, so nothing falls between the two; frames already replayed are skipped.
 */
export class StreamTail {
  readonly #early: TailFrame[] = [];
  #sink?: EventStreamSink;
  #after = -1;
  #stop: () => void = () => undefined;

  /** Starts buffering; `subscribe` hands each published frame to the tail. */
  static async open(
    subscribe: (listener: (frame: TailFrame) => void) => Promise<() => void>,
  ): Promise<StreamTail> {
    const tail = new StreamTail();
    tail.#stop = await subscribe((frame) => tail.#take(frame));
    return tail;
  }

  /**
   * Continues `sink` after the replayed events (the last of which was `lastId`): ends it at once
   * when the replay held the answer, else relays what comes until the answer.
   */
  pipe(sink: EventStreamSink, lastId: string, answered: boolean): void {
    if (answered) {
      sink.end();
      this.stop();
      return;
    }
    this.#sink = sink;
    this.#after = seqOf(lastId);
    sink.onClose(() => this.stop());
    for (const frame of this.#early.splice(0)) this.#take(frame);
  }

  stop(): void {
    this.#stop();
    this.#early.length = 0;
  }

  #take(frame: TailFrame): void {
    const sink = this.#sink;
    if (!sink) {
      // Bounded by what one request sends while its resume is being set up.
      if (this.#early.length < 10_000) this.#early.push(frame);
      return;
    }
    if (sink.closed) return;
    if (frame.i !== undefined && seqOf(frame.i) <= this.#after) return;
    sink.write(sseEvent(frame.f, frame.i));
    if (frame.e) {
      sink.end();
      this.stop();
    }
  }
}

/**
 * The order of an event within its stream: every event of a request stream comes from the one
 * instance running it, which numbers them (`<stream>:<instance>.<n>`); the priming id is -1.
 */
function seqOf(eventId: string): number {
  const n = Number(eventId.slice(eventId.lastIndexOf('.') + 1));
  return Number.isInteger(n) && eventId.lastIndexOf('.') > eventId.lastIndexOf(':') ? n : -1;
}

/** Whether a stored frame is a request's answer (a response, or a batch of them). */
export function isAnswer(frame: string): boolean {
  try {
    const message = JSON.parse(frame) as unknown;
    const one = (m: unknown) =>
      typeof m === 'object' && m !== null && !('method' in m) && ('result' in m || 'error' in m);
    return Array.isArray(message) ? message.some(one) : one(message);
  } catch {
    return false;
  }
}
