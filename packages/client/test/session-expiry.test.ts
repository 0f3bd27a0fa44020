import { connect } from '@mcp-fw/client';
import { serveHttp } from '@mcp-fw/core/node';
import { expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';

// A legacy Streamable HTTP session the server forgot (a restart, an expiry) answers 404: the
// client must start a new session with initialize (spec: transports, session management).

it('a legacy HTTP session the server forgot (404) is replaced by a new initialize, and the call goes through', async () => {
  const first = await serveHttp(calculator, { port: 0 });
  const warnings: string[] = [];
  const client = await connect(first.url, {
    protocolVersion: '2025-11-25',
    onWarning: (w) => warnings.push(w),
  });
  expect(
    JSON.parse((await client.callTool('add', { a: 1, b: 1 })).content[0].text as string),
  ).toMatchObject({
    result: 2,
  });

  // The same address, a new server process as far as sessions go: it knows no session.
  await first.close();
  // Let the client's connection pool see its keep-alive sockets closed (a POST on a dead socket
  // is not retried by fetch, rightly: it may have been delivered).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const second = await serveHttp(calculator, { port: first.port });
  try {
    const [sum, product] = await Promise.all([
      client.callTool('add', { a: 2, b: 3 }),
      client.callTool('multiply', { a: 2, b: 3 }),
    ]);
    expect(JSON.parse(sum.content[0].text as string)).toMatchObject({ result: 5 });
    expect(JSON.parse(product.content[0].text as string)).toMatchObject({ result: 6 });
    expect([client.era, client.protocolVersion]).toEqual(['legacy', '2025-11-25']);
    expect(warnings.filter((w) => w.startsWith('The server forgot the session'))).toEqual([
      'The server forgot the session (HTTP 404); a new one was initialized and tools/call "add" sent again',
      'The server forgot the session (HTTP 404); a new one was initialized and tools/call "multiply" sent again',
    ]);
  } finally {
    await client.close();
    await second.close();
  }
});
