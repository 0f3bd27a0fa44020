/** One watched activity (a request body being received): when it last moved, and its neighbours. */
export class Watched {
  at = 0;
  prev?: Watched;
  next?: Watched;
  queued = false;

  constructor(readonly onIdle: () => void) {}
}

/**
 * Calls `onIdle` of whatever has not been touched for `idleMs`, with one timer for all of them.
 * Every entry idles for the same length, so the list kept in order of last activity has the next
 * to expire at its head. A socket timeout per request (the alternative) made a timer object, a
 * bound function and a listener per request and cleared them again when the body was in.
 *
 * The timer is left running while the list is empty and simply not re-armed when it finds
 * nothing: back-to-back requests then add and remove entries without touching a timer at all.
 * An entry may be told idle up to one timer tick late, never early.
 */
export class IdleWatch {
  #head?: Watched;
  #tail?: Watched;
  #timer?: ReturnType<typeof setTimeout>;

  constructor(readonly idleMs: number) {}

  /** Starts watching `entry` (active now). */
  add(entry: Watched): void {
    entry.at = Date.now() + this.idleMs;
    this.#push(entry);
    this.#timer ??= this.#arm(this.idleMs);
  }

  /** `entry` showed activity: its idle time starts again. */
  touch(entry: Watched): void {
    if (!entry.queued) return;
    entry.at = Date.now() + this.idleMs;
    if (this.#tail === entry) return;
    this.#unlink(entry);
    this.#push(entry);
  }

  /** Stops watching `entry`. */
  remove(entry: Watched): void {
    if (entry.queued) this.#unlink(entry);
  }

  #push(entry: Watched): void {
    entry.queued = true;
    entry.prev = this.#tail;
    entry.next = undefined;
    if (this.#tail) this.#tail.next = entry;
    else this.#head = entry;
    this.#tail = entry;
  }

  #unlink(entry: Watched): void {
    entry.queued = false;
    if (entry.prev) entry.prev.next = entry.next;
    else this.#head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.#tail = entry.prev;
    entry.prev = entry.next = undefined;
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#expire(), ms);
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #expire(): void {
    this.#timer = undefined;
    const now = Date.now();
    let entry = this.#head;
    while (entry && entry.at <= now) {
      this.#unlink(entry);
      entry.onIdle();
      entry = this.#head;
    }
    if (entry) this.#timer = this.#arm(entry.at - now);
  }
}
