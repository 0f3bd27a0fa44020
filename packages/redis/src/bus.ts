import type { MessageBus } from '@mcp-fw/core/http';

/** What the bus needs of node-redis clients: one to publish, one in subscriber mode. */
export interface PubSubClients {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

/**
 * The message bus on Redis pub/sub: at most once, to the instances subscribed at that moment.
 * Subscriptions are made on a dedicated connection, which node-redis restores after a reconnect.
 */
export class RedisBus implements MessageBus {
  constructor(
    private readonly publisher: Pick<PubSubClients, 'publish'>,
    private readonly subscriber: Pick<PubSubClients, 'subscribe' | 'unsubscribe'>,
    private readonly prefix: string,
  ) {}

  /** Publishes `message` on `topic`'s channel (under the store's prefix). */
  async publish(topic: string, message: string): Promise<void> {
    await this.publisher.publish(this.#channel(topic), message);
  }

  async subscribe(topic: string, listener: (message: string) => void): Promise<() => void> {
    const channel = this.#channel(topic);
    // A listener of its own, so that stopping one subscriber leaves others on the same topic.
    const own = (message: string) => listener(message);
    await this.subscriber.subscribe(channel, own);
    return () => {
      this.subscriber.unsubscribe(channel, own).catch(() => undefined);
    };
  }

  #channel(topic: string): string {
    return `${this.prefix}${topic}`;
  }
}
