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
  let settleAck: ((ack: ListenFilter) => void) | undefined;
  const stop = session.listen((method, params) => {
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
  const uris = capabilities.resources?.subscribe ? [...(filter.resourceUris ?? [])] : [];
  for (const uri of uris) await session.request('resources/subscribe', { uri }, { timeoutMs });
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
      await Promise.all(
        uris.map((uri) =>
          session.request('resources/unsubscribe', { uri }, { timeoutMs }).catch(() => {}),
        ),
      );
    },
  };
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
