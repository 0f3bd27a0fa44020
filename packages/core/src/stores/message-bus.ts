/**
 * Messages between the instances of one server: server-wide events (a list changed, a resource
 * was updated) and what a legacy session's client sends to one instance for a request another
 * is serving (answers to elicitation / sampling / roots requests, cancels, session ends).
 * Delivery is at most once and only to instances subscribed at that moment, as with Redis
 * pub/sub; every message is a string.
 *
 * @example
 * ```ts
 * const off = await bus.subscribe('hub', (message) => received.push(message));
 * await bus.publish('hub', '{"k":"list","l":"tools"}');
 * off();
 * ```
 */
export interface MessageBus {
  /** Sends `message` to every instance subscribed to `topic` now (at most once, none kept). */
  publish(topic: string, message: string): void | Promise<void>;
  /** Starts delivering `topic`'s messages to `listener`; resolves once subscribed, to a stop function. */
  subscribe(topic: string, listener: (message: string) => void): Promise<() => void>;
}
