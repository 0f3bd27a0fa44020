import type { Readable } from 'node:stream';
import type { McpFwServer } from '@mcp-fw/core';
import type { Channel, ChannelSink } from '@mcp-fw/core/transport';
import type { FromChild, ToChild } from '../mux.js';

interface Served {
  sink?: ChannelSink;
  connection: ReturnType<McpFwServer['connect']>;
}

/**
 * Serves `server` to the supervisor over the mux pipe: one core connection per `open`, each on
 * a channel that forwards frames, routes and settlements verbatim. Exits once the supervisor
 * has closed the pipe and every connection has closed.
 */
export function serveMux(
  server: McpFwServer,
  input: Readable,
  send: (message: FromChild) => void,
): void {
  const served = new Map<number, Served>();
  let inputEnded = false;
  const exitWhenIdle = () => {
    if (inputEnded && served.size === 0) process.exit(0);
  };
  const onMessage = (message: ToChild) => {
    if (message.t === 'open') {
      const entry = {} as Served;
      const s = message.s;
      const channel: Channel = {
        id: message.id,
        remote: message.remote,
        start: (sink) => void (entry.sink = sink),
        send: (frame, route) =>
          send(
            route
              ? { t: 'out', s, f: frame, o: route.origin as number, final: route.final }
              : { t: 'out', s, f: frame },
          ),
        settle: (origin) => send({ t: 'settle', s, o: origin as number }),
        close: async () => {
          served.delete(s);
          send({ t: 'closed', s });
          exitWhenIdle();
        },
      };
      served.set(s, entry);
      entry.connection = server.connect(channel, message.mode);
      return;
    }
    if (message.t === 'load') return;
    const entry = served.get(message.s);
    if (!entry) return;
    switch (message.t) {
      case 'in':
        return entry.sink?.frame(message.f, message.o, message.peer);
      case 'ended':
        return entry.sink?.ended();
      case 'abandoned':
        return entry.sink?.abandoned(message.o);
      case 'close':
        return void entry.connection.close(message.grace);
    }
  };
  let rest = '';
  input.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onMessage(JSON.parse(line) as ToChild);
  });
  input.once('end', () => {
    inputEnded = true;
    // The supervisor is gone or done with us: close what is still open, without waiting.
    for (const entry of served.values()) void entry.connection.close(0);
    exitWhenIdle();
  });
}
