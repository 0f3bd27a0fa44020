// The requests an engine is serving, as a doubly linked list instead of a Map and a Set.
//
// Why not a Map: V8 replaces a Map's (or Set's) hash table every few dozen insertions when
// entries come and go, and the table it leaves keeps pointing at the new one and at the entries
// it held then. Once one of those tables has been moved to the old generation, every table after
// it (and every request any of them held) is kept through each young-generation collection until
// the next full one: a server answering many requests at once copies and promotes requests long
// answered. A list node holds only its own request and its neighbours, and a node taken out
// forgets both, so nothing ended is reachable from anything still in the list.

/** One entry: the handle {@link InFlight.add} returns and {@link InFlight.remove} takes. */
export interface InFlightEntry<T> {
  readonly item: T;
  /** @internal */
  prev: InFlightEntry<T> | undefined;
  /** @internal */
  next: InFlightEntry<T> | undefined;
}

/** Items in the order they were added; adding and removing allocate nothing but the entry. */
export class InFlight<T> {
  #head: InFlightEntry<T> | undefined;
  #tail: InFlightEntry<T> | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(item: T): InFlightEntry<T> {
    const entry: InFlightEntry<T> = { item, prev: this.#tail, next: undefined };
    if (this.#tail) this.#tail.next = entry;
    else this.#head = entry;
    this.#tail = entry;
    this.#size++;
    return entry;
  }

  /** Takes `entry` out (once; a second call does nothing). */
  remove(entry: InFlightEntry<T>): void {
    const { prev, next } = entry;
    if (prev === undefined && next === undefined && this.#head !== entry) return;
    if (prev) prev.next = next;
    else this.#head = next;
    if (next) next.prev = prev;
    else this.#tail = prev;
    entry.prev = undefined;
    entry.next = undefined;
    this.#size--;
  }

  /** The item added last that `matches`, if any. */
  findLast(matches: (item: T) => boolean): T | undefined {
    for (let entry = this.#tail; entry; entry = entry.prev)
      if (matches(entry.item)) return entry.item;
    return undefined;
  }

  /** The items, oldest first: a copy, so that what is done with each may add or remove entries. */
  items(): T[] {
    const items: T[] = [];
    for (let entry = this.#head; entry; entry = entry.next) items.push(entry.item);
    return items;
  }
}
