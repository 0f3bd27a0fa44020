// An MCP server driven in process through a channel stub: no I/O, so what is measured is the
// framework's own work per frame (parsing and serialising included). Shared by the in-process
// cost scripts (guard-cost, era-cost).

/** What the stub needs of a server: `McpFwServer.connect`, in any core version. */
interface Connectable {
  connect(channel: {
    start(sink: { frame(text: string): void }): void;
    send(frame: string): void;
    close(): Promise<void>;
  }): unknown;
}

export interface InProcessDriver {
  /** Sends `n` frames made by `frame(id)` (ids from 1), `inFlight` unanswered at most. */
  run(n: number, frame: (id: number) => string, inFlight?: number): Promise<void>;
  /** Sends `initialize` and `notifications/initialized`, as a legacy client does. */
  initialize(protocolVersion: string): Promise<void>;
  /** The last frame the server sent. */
  readonly lastAnswer: string;
}

export function driveInProcess(server: Connectable): InProcessDriver {
  let sink!: { frame(text: string): void };
  let answered = 0;
  let target = 0;
  let done = () => {};
  let last = '';
  server.connect({
    start: (s) => (sink = s),
    send: (frame) => {
      last = frame;
      if (++answered === target) done();
    },
    close: async () => {},
  });
  const run = (n: number, frame: (id: number) => string, inFlight = 64): Promise<void> => {
    answered = 0;
    target = n;
    let sent = 0;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const pump = () => {
      while (sent - answered < inFlight && sent < n) sink.frame(frame(++sent));
      if (sent < n) setImmediate(pump);
    };
    pump();
    return finished;
  };
  return {
    run,
    async initialize(protocolVersion) {
      const params = {
        protocolVersion,
        capabilities: {},
        clientInfo: { name: 'in-process', version: '1' },
      };
      await run(1, () => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }));
      sink.frame('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    },
    get lastAnswer() {
      return last;
    },
  };
}
