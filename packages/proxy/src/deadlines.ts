import { RequestTimeoutError } from '@mcp-fw/client';
import type { Abortable } from '@mcp-fw/core/transport';

// The proxy's timeoutMs for the calls it passes on, without a timer per call. Every call of one
// upstream waits the same time, so deadlines fall in the order the calls start: a queue in start
// order and one timer, armed for the oldest call still waiting, replace the engine's timer per
// request (a setTimeout and a clearTimeout per forwarded call, on the proxy's hottest path).

/**
 * One call's deadline, handed to the client's request as its `abortWith`: the request is given
 * up when the caller cancels (the caller's own `onAbort`) or when the deadline passes.
 */
export class Deadline implements Abortable {
  #listener?: (reason: unknown) => void;
  /** Ended (answered, failed or expired): the queue drops it. */
  done = false;

  constructor(
    readonly caller: Abortable,
    readonly what: string,
    readonly at: number,
  ) {}

  onAbort(listener: (reason: unknown) => void): void {
    this.#listener = listener;
    this.caller.onAbort(listener);
  }

  /** The deadline passed: the request is given up with `reason` (once). */
  expire(reason: unknown): void {
    this.done = true;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.(reason);
  }
}

const MAX_DELAY_MS = 2 ** 31 - 1;

/** The deadlines of one upstream's pass-through calls: at most one timer armed at a time. */
export class Deadlines {
  readonly #timeoutMs: number;
  #queue: Deadline[] = [];
  #head = 0;
  /** Calls in the queue that have not ended. */
  #live = 0;
  #timer?: ReturnType<typeof setTimeout>;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** A deadline `timeoutMs` from now for the call `caller` cancels (`what` names it). */
  start(caller: Abortable, what: string): Deadline {
    const deadline = new Deadline(caller, what, performance.now() + this.#timeoutMs);
    this.#queue.push(deadline);
    this.#live++;
    // Left armed when calls end: it fires at most once per timeoutMs while calls keep coming.
    if (this.#timer === undefined) this.#arm(this.#timeoutMs);
    return deadline;
  }

  /** The call ended before its deadline. */
  end(deadline: Deadline): void {
    if (deadline.done) return;
    deadline.done = true;
    this.#live--;
    this.#trim();
  }

  /** Stops the timer (the upstream closed); what still waits is ended by its connection closing. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    // setTimeout fires at once for a delay past 2^31-1 ms: a longer deadline is re-armed then.
    this.#timer = setTimeout(
      () => this.#fire(),
      Math.min(MAX_DELAY_MS, Math.max(1, Math.ceil(ms))),
    );
    // Waiting calls keep the process alive through their connections, not through this timer.
    this.#timer.unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const deadline = queue[this.#head];
      if (!deadline.done) {
        if (deadline.at > now) break;
        this.#live--;
        deadline.expire(
          new RequestTimeoutError(`${deadline.what} (through the proxy)`, this.#timeoutMs),
        );
      }
      this.#drop();
    }
    this.#trim();
    if (this.#head < this.#queue.length) this.#arm(this.#queue[this.#head].at - now);
  }

  // The slot the head passes is emptied: an ended call held there (and the caller's request it
  // names) would otherwise live until the next compaction, long enough to be promoted to the old
  // generation, so that a busy proxy's heap grows and every scavenge copies calls long answered.
  #drop(): void {
    (this.#queue as (Deadline | undefined)[])[this.#head++] = undefined;
  }

  // Ended calls leave from the front; a slow call there keeps the ones behind it queued, so the
  // queue is compacted once most of it has ended (memory stays bounded by the calls waiting).
  #trim(): void {
    const queue = this.#queue;
    while (this.#head < queue.length && queue[this.#head].done) this.#drop();
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
    } else if (queue.length - this.#head > 1024 && this.#live * 2 < queue.length - this.#head) {
      this.#queue = queue.filter((deadline, i) => i >= this.#head && !deadline.done);
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Calls waiting (tests read it). */
  get waiting(): number {
    return this.#live;
  }

  /** Entries held, ended ones included (tests read it: it stays bounded). */
  get held(): number {
    return this.#queue.length - this.#head;
  }
}
