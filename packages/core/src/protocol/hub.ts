import type { ListName } from './list-changed.js';

export type { ListName };

/** What the hub needs of a connection: a way to pass on server-wide events. */
export interface HubMember {
  listChanged(list: ListName): void;
  resourceUpdated(uri: string): void;
}

/**
 * The open connections of one server, so that server-wide events (a list changed, a resource
 * was updated) reach every session; each connection decides what its client may receive.
 */
export class ConnectionHub {
  readonly #members = new Set<HubMember>();
  readonly #shutdown = new Set<() => void>();

  add(member: HubMember): void {
    this.#members.add(member);
  }

  delete(member: HubMember): void {
    this.#members.delete(member);
  }

  get size(): number {
    return this.#members.size;
  }

  listChanged(list: ListName): void {
    for (const member of this.#members) member.listChanged(list);
  }

  resourceUpdated(uri: string): void {
    for (const member of this.#members) member.resourceUpdated(uri);
  }

  /** Runs `listener` when the server ends its subscriptions (see {@link endSubscriptions}). */
  onShutdown(listener: () => void): () => void {
    this.#shutdown.add(listener);
    return () => this.#shutdown.delete(listener);
  }

  /** Ends every open `subscriptions/listen` stream gracefully, with a final result. */
  endSubscriptions(): void {
    const listeners = [...this.#shutdown];
    this.#shutdown.clear();
    for (const listener of listeners) listener();
  }
}
