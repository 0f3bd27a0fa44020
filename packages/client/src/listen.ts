import type { JsonRpcId } from '@mcp-fw/core/transport';
import { RequestTimeoutError } from './errors.js';
import type { Session } from './session.js';
import type { ServerDescription } from './types.js';

/** What a {@link McpClient.listen} subscription asks to hear of. */
export interface ListenFilter {
  /** `notifications/tools/list_changed` */
  readonly tools?: boolean;
  /** `notifications/prompts/list_changed` */
  readonly prompts?: boolean;
  /** `notifications/resources/list_changed` */
  readonly resources?: boolean;
  /** `notifications/resources/updated` for these URIs. */
  readonly resourceUris?: readonly string[];
}

/** One change the server reported. */
export interface Change {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A live subscription. */
export interface Listening {
  /** What the server agreed to send (a 2026-07-28 acknowledgement; legacy: its capabilities). */
  readonly acknowledged: ListenFilter;
  /** Whether the subscription still runs (the server may end it). */
  readonly active: boolean;
  /** Ends the subscription: closes the listen stream, or unsubscribes the resources. */
  close(): Promise<void>;
}

/** The `_meta` key tagging each message of a 2026-07-28 listen stream with its request id. */
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

const CHANGES: Record<string, keyof ListenFilter> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
  'notifications/resources/updated': 'resourceUris',
};

/**
 * One subscription to the server's changes in either era: a 2026-07-28 `subscriptions/listen`
 * stream (acknowledged before this resolves), or, in a legacy session, the unsolicited
 * `list_changed` notifications plus `resources/subscribe` for each URI. `onChange` hears only
 * what the filter asked for.
 */
export async function listen(
  session: Session,
  server: ServerDescription,
  filter: ListenFilter,
  onChange: (change: Change) => void,
  timeoutMs: number,
): Promise<Listening> {
  let active = true;
  let acknowledged: ListenFilter = {};
  const wanted = (change: Change): boolean => {
    const key = CHANGES[change.method];
    if (!key || !active) return false;
    if (key !== 'resourceUris') return filter[key] === true;
    return filter.resourceUris?.includes(String(change.params.uri)) ?? false;
  };
  // 2026-07-28: every message of a listen stream is tagged with its request's id, and all the
  // session's streams reach the same notification listeners: a subscription hears only its own.
  let subscriptionId: JsonRpcId | undefined;
  const ours = (params: Record<string, unknown>): boolean => {
    if (session.era !== 'modern') return true;
    const tag = (params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID];
    // A server that tags nothing has its streams heard by all (there is no telling them apart).
    if (tag === undefined) return true;
    return subscriptionId !== undefined && String(tag) === String(subscriptionId);
  };
  let settleAck: ((ack: ListenFilter) => void) | undefined;
  const stop = session.listen((method, params) => {
    if (!ours(params)) return;
    if (method === 'notifications/subscriptions/acknowledged')
      settleAck?.(fromWire(params.notifications));
    else if (wanted({ method, params })) onChange({ method, params });
  });

  if (session.era === 'modern') {
    const controller = new AbortController();
    const acked = new Promise<ListenFilter>((resolve) => (settleAck = resolve));
    const stream = session
      .request(
        'subscriptions/listen',
        { notifications: toWire(filter) },
        {
          signal: controller.signal,
          timeoutMs: Number.POSITIVE_INFINITY,
          onId: (id) => (subscriptionId = id),
        },
      )
      .then(
        () => {},
        (error: unknown) => error,
      )
      .finally(() => {
        active = false;
        stop();
      });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const failure = await Promise.race([
      acked.then((ack) => {
        acknowledged = ack;
        return undefined;
      }),
      stream.then(
        (error) =>
          error ?? new Error('The server ended subscriptions/listen before acknowledging it'),
      ),
      new Promise<Error>((resolve) => {
        if (Number.isFinite(timeoutMs))
          timer = setTimeout(
            () =>
              resolve(
                new RequestTimeoutError('subscriptions/listen (its acknowledgement)', timeoutMs),
              ),
            timeoutMs,
          );
      }),
    ]);
    clearTimeout(timer);
    settleAck = undefined;
    if (failure) {
      controller.abort(failure);
      throw failure;
    }
    return {
      acknowledged,
      get active() {
        return active;
      },
      close: async () => {
        controller.abort(new Error('listen closed by the client'));
        await stream;
      },
    };
  }

  // Legacy: list changes come unsolicited where the server declares them; resources are
  // subscribed one by one.
  const capabilities = server.capabilities as Record<
    string,
    { listChanged?: boolean; subscribe?: boolean } | undefined
  >;
  const uris = capabilities.resources?.subscribe ? [...new Set(filter.resourceUris ?? [])] : [];
  const shared = subscriptionsOf(session);
  await Promise.all(uris.map((uri) => shared.add(uri, timeoutMs)));
  acknowledged = {
    ...(filter.tools && capabilities.tools?.listChanged ? { tools: true } : {}),
    ...(filter.prompts && capabilities.prompts?.listChanged ? { prompts: true } : {}),
    ...(filter.resources && capabilities.resources?.listChanged ? { resources: true } : {}),
    ...(uris.length ? { resourceUris: uris } : {}),
  };
  return {
    acknowledged,
    get active() {
      return active;
    },
    close: async () => {
      if (!active) return;
      active = false;
      stop();
      await Promise.all(uris.map((uri) => shared.remove(uri, timeoutMs)));
    },
  };
}

/**
 * A legacy session's `resources/subscribe`s, counted: the server keeps one subscription per URI
 * for the whole session, so it is ended only when the last `listen()` that wanted it closes.
 */
class ResourceSubscriptions {
  readonly #session: Session;
  readonly #held = new Map<string, { count: number; ready: Promise<unknown> }>();

  constructor(session: Session) {
    this.#session = session;
  }

  async add(uri: string, timeoutMs: number): Promise<void> {
    const held = this.#held.get(uri);
    if (held) {
      held.count++;
      await held.ready;
      return;
    }
    const ready = this.#session.request('resources/subscribe', { uri }, { timeoutMs });
    this.#held.set(uri, { count: 1, ready });
    try {
      await ready;
    } catch (error) {
      this.#held.delete(uri);
      throw error;
    }
  }

  async remove(uri: string, timeoutMs: number): Promise<void> {
    const held = this.#held.get(uri);
    if (!held || --held.count > 0) return;
    this.#held.delete(uri);
    await this.#session.request('resources/unsubscribe', { uri }, { timeoutMs }).catch(() => {});
  }
}

const subscriptions = new WeakMap<Session, ResourceSubscriptions>();

function subscriptionsOf(session: Session): ResourceSubscriptions {
  let found = subscriptions.get(session);
  if (!found) subscriptions.set(session, (found = new ResourceSubscriptions(session)));
  return found;
}

function toWire(filter: ListenFilter): Record<string, unknown> {
  return {
    ...(filter.tools ? { toolsListChanged: true } : {}),
    ...(filter.prompts ? { promptsListChanged: true } : {}),
    ...(filter.resources ? { resourcesListChanged: true } : {}),
    ...(filter.resourceUris?.length ? { resourceSubscriptions: [...filter.resourceUris] } : {}),
  };
}

function fromWire(value: unknown): ListenFilter {
  const n = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    ...(n.toolsListChanged === true ? { tools: true } : {}),
    ...(n.promptsListChanged === true ? { prompts: true } : {}),
    ...(n.resourcesListChanged === true ? { resources: true } : {}),
    ...(Array.isArray(n.resourceSubscriptions)
      ? { resourceUris: n.resourceSubscriptions.map(String) }
      : {}),
  };
}
