import type { Channel, ChannelSink } from '../jsonrpc/index.js';

/**
 * Two linked channels: what one sends, the other receives, on a later microtask as real I/O
 * would deliver it. Used by the testing API, so servers can be tested without processes.
 */
export function createInMemoryPair(): [Channel, Channel] {
  const a = new InMemoryChannel();
  const b = new InMemoryChannel();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class InMemoryChannel implements Channel {
  peer?: InMemoryChannel;
  sink?: ChannelSink;
  #closed = false;

  start(sink: ChannelSink): void {
    this.sink = sink;
  }

  send(frame: string): void {
    const peer = this.peer;
    if (this.#closed || !peer) return;
    queueMicrotask(() => peer.sink?.frame(frame));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    queueMicrotask(() => {
      this.sink?.ended();
      peer?.sink?.ended();
    });
  }
}
