import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, portTaken } from '../../../test-support/ports.ts';
import { Balancer, exclusive, HAPROXY } from './support/processes.ts';

// The test HAProxy (support/processes.ts) on a port another test file took between the probe
// and HAProxy's bind: the start must fail as "port taken" (so onFreePort tries a fresh port),
// never pass with someone else's listener behind the URL.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!HAPROXY)('the test balancer on a taken port', () => {
  it('a balancer port another program listens on is refused as taken, not mistaken for the balancer', async () => {
    const squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => squatter.close(resolve)));
    const port = (squatter.address() as { port: number }).port;
    const error = await Balancer.startOn([await freePort()], port).then(
      async (balancer) => {
        closers.push(() => balancer.stop());
        return undefined;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/Address already in use/);
    expect(portTaken(error)).toBe(true);
  });

  it('a second HAProxy on the same port fails as taken instead of sharing the port', async () => {
    const backend = await freePort();
    const first = await Balancer.startOn([backend], await freePort());
    closers.push(() => first.stop());
    const error = await Balancer.startOn([backend], first.port).then(
      async (second) => {
        closers.push(() => second.stop());
        return undefined;
      },
      (e: Error) => e,
    );
    expect(portTaken(error)).toBe(true);
  });
});

describe('exclusive', () => {
  it('adds noreuseport to the global section, or a global section with it', () => {
    expect(exclusive('global\n  maxconn 5\nfrontend f\n')).toBe(
      'global\n  noreuseport\n  maxconn 5\nfrontend f\n',
    );
    expect(exclusive('defaults\n  mode http\n')).toBe(
      'global\n  noreuseport\ndefaults\n  mode http\n',
    );
  });
});
