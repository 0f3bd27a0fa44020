import type { MessageBus } from '../stores/index.js';
import type { ChangedMember, ListName } from './list-changed.js';
import type { TaskSnapshot } from './tasks/task-snapshot.js';

export type { ChangedMember, ListName };

const HUB_TOPIC = 'hub';

/**
 * A server-wide event on the bus, raised on node `n`: a list changed (`m` the members that
 * came or went, when known), a resource was updated, or a task changed status (`v` its recorded
 * owner, `s` its snapshot).
 */
interface HubEvent {
  readonly k: 'list' | 'res' | 'task';
  readonly v: string;
  readonly m?: readonly ChangedMember[];
  readonly s?: TaskSnapshot;
  readonly n: string;
}

/** What the hub needs of a connection: a way to pass on server-wide events. */
export interface HubMember {
  /**
   * `list` changed: `changes` are the members that came or went (undefined when unknown), so
   * that a caller whose lists show none of them is not told.
   */
  listChanged(list: ListName, changes?: readonly ChangedMember[]): void;
  resourceUpdated(uri: string): void;
  /** A task changed status, on any instance (for `notifications/tasks`). */
  taskChanged?(owner: string, snapshot: TaskSnapshot): void;
}

/**
 * The open connections of one server, so that server-wide events (a list changed, a resource
 * was updated) reach every session; each connection decides what its client may receive.
 */
export class ConnectionHub {
  readonly #members = new Set<HubMember>();
  readonly #shutdown = new Set<() => void>();
  // Servers this one is mounted in: told of its changes here, not counted as connections.
  readonly #watchers = new Set<HubMember>();

  add(member: HubMember): void {
    this.#members.add(member);
  }

  delete(member: HubMember): void {
    this.#members.delete(member);
  }

  /**
   * Tells `watcher` of the list changes and resource updates raised on this instance (a parent
   * server following a mounted child); returns how to stop. Not a connection: not in {@link size}.
   */
  watch(watcher: HubMember): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  get size(): number {
    return this.#members.size;
  }

  listChanged(list: ListName, changes?: readonly ChangedMember[]): void {
    for (const member of this.#members) member.listChanged(list, changes);
    for (const watcher of this.#watchers) watcher.listChanged(list, changes);
    this.#publish(changes ? { k: 'list', v: list, m: changes } : { k: 'list', v: list });
  }

  resourceUpdated(uri: string): void {
    for (const member of this.#members) member.resourceUpdated(uri);
    for (const watcher of this.#watchers) watcher.resourceUpdated(uri);
    this.#publish({ k: 'res', v: uri });
  }

  /**
   * A task changed status (it runs here, or this instance ended it for another): its followers
   * hear it, on every instance.
   */
  taskChanged(owner: string, snapshot: TaskSnapshot): void {
    for (const member of this.#members) member.taskChanged?.(owner, snapshot);
    this.#publish({ k: 'task', v: owner, s: snapshot });
  }

  #bus?: { readonly bus: MessageBus; readonly node: string };

  /**
   * Shares server-wide events with the other instances on `bus`: those raised here reach their
   * connections too, and theirs reach this instance's (each event once per instance).
   */
  async share(bus: MessageBus, node: string): Promise<() => void> {
    this.#bus = { bus, node };
    const stop = await bus.subscribe(HUB_TOPIC, (raw) => {
      let event: HubEvent;
      try {
        event = JSON.parse(raw) as HubEvent;
      } catch {
        return;
      }
      if (event.n === node || typeof event.v !== 'string') return;
      const changes = event.k === 'list' ? changedMembers(event.m) : undefined;
      for (const member of this.#members) {
        if (event.k === 'list') member.listChanged(event.v as ListName, changes);
        else if (event.k === 'res') member.resourceUpdated(event.v);
        else if (event.k === 'task' && typeof event.s?.taskId === 'string')
          member.taskChanged?.(event.v, event.s);
      }
    });
    return () => {
      this.#bus = undefined;
      stop();
    };
  }

  #publish(event: Omit<HubEvent, 'n'>): void {
    const shared = this.#bus;
    if (!shared) return;
    void Promise.resolve()
      .then(() => shared.bus.publish(HUB_TOPIC, JSON.stringify({ ...event, n: shared.node })))
      .catch(() => {
        // Best effort, as pub/sub is: instances that miss an event are not told again.
      });
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

/**
 * The members a list event from another instance names: undefined when it names none (an
 * instance that does not say tells everyone, as before), and none that are malformed.
 */
function changedMembers(raw: unknown): readonly ChangedMember[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.filter(
    (m): m is ChangedMember =>
      typeof m?.kind === 'string' &&
      typeof m.name === 'string' &&
      Array.isArray(m.scopes) &&
      m.scopes.every((s: unknown) => typeof s === 'string'),
  );
}
