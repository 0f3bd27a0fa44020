import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type ServerLimits } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import {
  CLIENT_MODES,
  deferred,
  listen,
  officialClient,
  textOf,
  until,
} from './support/guard-clients.ts';

let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

class Busy {
  readonly started: number[] = [];
  readonly gate = deferred();

  @Tool({ description: 'Works until the test lets it finish', input: z.object({ n: z.number() }) })
  async work({ n }: { n: number }) {
    this.started.push(n);
    await this.gate.promise;
    return `done ${n}`;
  }
}

const tooMany = (where: string, running: number, waiting: number) =>
  `Too many calls at once ${where}: ${running} running and ${waiting} waiting (concurrency). Try again when one finishes.`;

describe.each(CLIENT_MODES)('concurrency caps through the official client (%s, %s)', (mode) => {
  async function start(limits: ServerLimits) {
    const busy = new Busy();
    const http = await listen(
      createServer({ name: 'busy', version: '1.0.0', providers: [busy], limits }),
    );
    cleanups.push(() => http.close());
    const connect = async () => {
      const { client, close } = await officialClient(http.url, mode);
      cleanups.push(close);
      return client;
    };
    return { busy, connect };
  }

  it('queues calls over the session cap up to maxQueued, then refuses them', async () => {
    const { busy, connect } = await start({ concurrency: { perSession: 1, maxQueued: 1 } });
    const client = await connect();
    const call = (n: number) => client.callTool({ name: 'work', arguments: { n } }).then(textOf);
    const first = call(1);
    await until(() => busy.started.length === 1);
    // One of the next two waits in the queue; the other finds it full (HTTP requests race).
    const [second, third] = [call(2), call(3)];
    const refusal = await Promise.race([second, third]);
    expect(refusal).toBe(tooMany('for this session (perSession)', 1, 1));
    expect(busy.started).toEqual([1]);
    busy.gate.resolve();
    expect(await first).toBe('done 1');
    const outcomes = [await second, await third];
    expect(outcomes.filter((text) => text !== refusal)).toEqual([`done ${busy.started[1]}`]);
    expect(busy.started.length).toBe(2);
  });

  it('caps the whole server across sessions', async () => {
    const { busy, connect } = await start({ concurrency: { perServer: 1, maxQueued: 0 } });
    const [a, b] = [await connect(), await connect()];
    const first = a.callTool({ name: 'work', arguments: { n: 1 } }).then(textOf);
    await until(() => busy.started.length === 1);
    expect(textOf(await b.callTool({ name: 'work', arguments: { n: 2 } }))).toBe(
      tooMany('on this server (perServer)', 1, 0),
    );
    busy.gate.resolve();
    expect(await first).toBe('done 1');
    expect(textOf(await b.callTool({ name: 'work', arguments: { n: 3 } }))).toBe('done 3');
    expect(busy.started).toEqual([1, 3]);
  });
});

describe('concurrency caps (in memory)', () => {
  it('a queued call the client cancels leaves the queue', async () => {
    const busy = new Busy();
    const server = createServer({
      name: 'busy',
      version: '1.0.0',
      providers: [busy],
      limits: { concurrency: { perSession: 1, maxQueued: 1 } },
    });
    const client = await connectTestClient(server);
    cleanups.push(() => client.close());
    const first = client.callTool('work', { n: 1 });
    await until(() => busy.started.length === 1);
    const cancel = new AbortController();
    const second = client.callTool('work', { n: 2 }, { signal: cancel.signal });
    cancel.abort('changed my mind');
    await expect(second).rejects.toBe('changed my mind');
    const third = client.callTool('work', { n: 3 });
    busy.gate.resolve();
    expect(textOf(await first)).toBe('done 1');
    expect(textOf(await third)).toBe('done 3');
    expect(busy.started).toEqual([1, 3]);
  });
});
