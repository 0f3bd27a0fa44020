import { createServer as createNetServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@mcp-fw/core';
import { type HttpServerHandle, PortInUseError, serveHttp } from '@mcp-fw/core/node';
import { onFreePort, portTaken } from '../../../test-support/ports.ts';

// test-support/ports.ts: tests that must tell a server its port before it listens (its own URL is
// in its configuration) probe for a free one, and another test file can bind it first.
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Another test file's listener on `port`, as far as the server under test can tell. */
async function takeFirst(port: number): Promise<void> {
  const holder: Server = createNetServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => holder.close(resolve)));
}

describe('onFreePort', () => {
  it('a port taken between the probe and the bind is retried on a fresh port', async () => {
    const tried: number[] = [];
    // One server for every attempt (some helpers are handed theirs): a failed listen leaves it
    // free to serve on the next port.
    const server = createServer({ name: 's', version: '1' });
    const handle = await onFreePort(async (port): Promise<HttpServerHandle> => {
      tried.push(port);
      if (tried.length === 1) await takeFirst(port);
      return serveHttp(server, { port, health: '/healthz' });
    });
    closers.push(() => handle.close());
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    expect(handle.port).toBe(tried[1]);
    const health = await fetch(`http://127.0.0.1:${handle.port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('any other failure is thrown at once, not retried', async () => {
    let calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        throw new Error('the fixture is broken');
      }),
    ).rejects.toThrow('the fixture is broken');
    expect(calls).toBe(1);
  });

  it("a port in use is told from serveHttp's error and from a process's last words", () => {
    expect(portTaken(new PortInUseError(4000, '127.0.0.1'))).toBe(true);
    expect(
      portTaken(new Error('secure-notes exited with 1: port 4000 on 127.0.0.1 is already in use')),
    ).toBe(true);
    expect(portTaken(new Error('redis-server exited (1):\n# Address already in use'))).toBe(true);
    expect(portTaken(new Error('connect ECONNREFUSED 127.0.0.1:4000'))).toBe(false);
  });
});
