// The requests one side is waiting on, by the integer id it gave each: a ring of slots indexed by
// the id's low bits instead of a Map.
//
// Why not a Map: V8 replaces the hash table of a Map whose entries come and go every few dozen
// insertions, and the table it leaves keeps pointing at the new one and at the entries it held.
// Once one of those tables reaches the old generation, every table after it and every request
// they held survives each young-generation collection until the next full one (in-flight.ts).
// Why not an object keyed by id: adding and deleting its keys goes through the runtime.
// Ids are handed out in order and most requests are answered long before many more are sent, so
// a slot is almost always free when its next id comes; a request still waiting when its slot is
// wanted again moves the ring to twice the size, or, past RING_MAX slots, to a Map of stragglers.

// Small at first: every session has an engine, and most never wait on more than a few requests.
const RING_MIN = 8;
const RING_MAX = 4096;

/** Entries keyed by the integer id each carries; any other id finds nothing. */
export class PendingById<T extends { readonly id: number }> {
  #slots: (T | undefined)[] = new Array(RING_MIN).fill(undefined);
  #mask = RING_MIN - 1;
  /** Entries whose slot a later id needed, once the ring is at its largest. */
  #stragglers?: Map<number, T>;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `entry` (its id must not be pending already). */
  add(entry: T): void {
    this.#size++;
    let slot = entry.id & this.#mask;
    while (this.#slots[slot] !== undefined) {
      const holder = this.#slots[slot] as T;
      if (this.#slots.length < RING_MAX) this.#grow();
      else {
        (this.#stragglers ??= new Map()).set(holder.id, holder);
        this.#slots[slot] = undefined;
      }
      slot = entry.id & this.#mask;
    }
    this.#slots[slot] = entry;
  }

  get(id: unknown): T | undefined {
    if (typeof id !== 'number') return undefined;
    const entry = this.#slots[id & this.#mask];
    if (entry !== undefined && entry.id === id) return entry;
    return this.#stragglers?.get(id);
  }

  /** Takes out `entry`, which {@link get} returned. */
  delete(entry: T): void {
    const slot = entry.id & this.#mask;
    if (this.#slots[slot] === entry) this.#slots[slot] = undefined;
    else if (!this.#stragglers?.delete(entry.id)) return;
    this.#size--;
  }

  /** Every entry, lowest id first. */
  entries(): T[] {
    const entries: T[] = [];
    for (const entry of this.#slots) if (entry !== undefined) entries.push(entry);
    if (this.#stragglers) entries.push(...this.#stragglers.values());
    return entries.sort((a, b) => a.id - b.id);
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Array(old.length * 2).fill(undefined);
    this.#mask = this.#slots.length - 1;
    // Ids apart in the low bits of the old size are apart in those of twice that size.
    for (const entry of old) if (entry !== undefined) this.#slots[entry.id & this.#mask] = entry;
  }
}
