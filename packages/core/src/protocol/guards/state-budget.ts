import { resolveStateLimits, type StateLimits } from './state-limits.js';

/** Which cap a request ran into. */
export interface OverBudget {
  readonly limit: 'maxListenStreams' | 'maxListenStreamsPerClient' | 'maxSubscriptions';
  readonly scope: 'client' | 'server';
}

/**
 * The server-wide counts of client-made state: listen streams (in total and per client) and
 * resource subscriptions. Counted when state is made and when it goes, never scanned per call.
 */
export class StateBudget {
  readonly limits: Required<StateLimits>;
  #streams = 0;
  readonly #streamsByClient = new Map<string, number>();
  #subscriptions = 0;

  constructor(limits: StateLimits) {
    this.limits = resolveStateLimits(limits);
  }

  /** Open listen streams and resource subscriptions right now (tests and metrics). */
  get usage(): { streams: number; subscriptions: number } {
    return { streams: this.#streams, subscriptions: this.#subscriptions };
  }

  /** Takes a listen stream of `client` with `uris` subscriptions, or says which cap it hits. */
  openStream(client: string, uris: number): OverBudget | undefined {
    const mine = this.#streamsByClient.get(client) ?? 0;
    if (mine >= this.limits.maxListenStreamsPerClient)
      return { limit: 'maxListenStreamsPerClient', scope: 'client' };
    if (this.#streams >= this.limits.maxListenStreams)
      return { limit: 'maxListenStreams', scope: 'server' };
    if (this.#subscriptions + uris > this.limits.maxSubscriptions)
      return { limit: 'maxSubscriptions', scope: 'server' };
    this.#streamsByClient.set(client, mine + 1);
    this.#streams++;
    this.#subscriptions += uris;
    return undefined;
  }

  closeStream(client: string, uris: number): void {
    const mine = (this.#streamsByClient.get(client) ?? 1) - 1;
    if (mine > 0) this.#streamsByClient.set(client, mine);
    else this.#streamsByClient.delete(client);
    this.#streams--;
    this.#subscriptions -= uris;
  }

  /** Takes one resource subscription (a legacy session's); false at the server's cap. */
  takeSubscription(): boolean {
    if (this.#subscriptions >= this.limits.maxSubscriptions) return false;
    this.#subscriptions++;
    return true;
  }

  releaseSubscriptions(count: number): void {
    this.#subscriptions -= count;
  }
}
