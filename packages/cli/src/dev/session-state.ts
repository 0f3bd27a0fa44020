import { isLogLevel, type JsonRpcId, type LogLevel } from '@mcp-fw/core/transport';

/** An open `subscriptions/listen` request (2026-07-28): it outlives children, so it moves. */
export interface ListenRecord {
  readonly clientId: JsonRpcId;
  readonly params: Record<string, unknown>;
  /** The client transport's token for the listen request (its stream, over HTTP). */
  readonly origin: unknown;
  /** The id it has on the child serving it now; undefined while no child serves it. */
  childId?: number;
}

/** One step that brings a fresh connection to a session's state. */
export type ReplayStep =
  | { readonly kind: 'request'; readonly method: string; readonly params: Record<string, unknown> }
  | { readonly kind: 'notification'; readonly method: string };

/** Stringified ids, so that 1 and "1" stay different keys. */
export function idKey(id: JsonRpcId): string {
  return JSON.stringify(id);
}

/**
 * What a client established on its connection that a fresh child must be told again after a
 * reload: the legacy handshake, the log level and resource subscriptions, and (2026-07-28) the
 * open listen streams. Requests are observed as they pass, whichever child answers them.
 */
export class SessionState {
  #initialize?: Record<string, unknown>;
  #initialized = false;
  #logLevel?: LogLevel;
  readonly #subscriptions = new Set<string>();
  readonly listens = new Map<string, ListenRecord>();

  /** Whether the client ran the legacy handshake (then list changes are notified unsolicited). */
  get legacy(): boolean {
    return this.#initialize !== undefined;
  }

  get initialized(): boolean {
    return this.#initialized;
  }

  get logLevel(): LogLevel | undefined {
    return this.#logLevel;
  }

  /** Whether the legacy session subscribed to `uri` (`resources/subscribe`). */
  subscribed(uri: string): boolean {
    return this.#subscriptions.has(uri);
  }

  observeRequest(method: string, params: Record<string, unknown> | undefined): void {
    switch (method) {
      case 'initialize':
        this.#initialize ??= params ?? {};
        return;
      case 'logging/setLevel':
        // A level the server refuses changes nothing there, so nothing here either.
        if (isLogLevel(params?.level)) this.#logLevel = params.level;
        return;
      case 'resources/subscribe':
        if (typeof params?.uri === 'string') this.#subscriptions.add(params.uri);
        return;
      case 'resources/unsubscribe':
        if (typeof params?.uri === 'string') this.#subscriptions.delete(params.uri);
        return;
    }
  }

  observeNotification(method: string): void {
    if (method === 'notifications/initialized') this.#initialized = true;
  }

  /** The legacy requests and notifications to replay, in the order the client sent them. */
  replaySteps(): ReplayStep[] {
    if (!this.#initialize) return [];
    const steps: ReplayStep[] = [
      { kind: 'request', method: 'initialize', params: this.#initialize },
    ];
    if (this.#initialized)
      steps.push({ kind: 'notification', method: 'notifications/initialized' });
    if (this.#logLevel !== undefined)
      steps.push({
        kind: 'request',
        method: 'logging/setLevel',
        params: { level: this.#logLevel },
      });
    for (const uri of this.#subscriptions)
      steps.push({ kind: 'request', method: 'resources/subscribe', params: { uri } });
    return steps;
  }

  /** Whether a listen stream still holds the client transport's `origin` open. */
  holds(origin: unknown): boolean {
    for (const listen of this.listens.values()) if (listen.origin === origin) return true;
    return false;
  }
}
