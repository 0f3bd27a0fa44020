// Headers of the answers node:http is handed must reuse V8's hidden classes. An object spread
// with a property after it (`{ ...base, 'content-type': … }`) got a new hidden class for every
// answer on Node 20: each a map in the old generation, which grew with every call and was paid
// for in incremental marking (bench/README.md, "Issue 40, target 3"). V8's own check of two
// objects' maps (`%HaveSameMap`, natives syntax switched on for this process) says whether they
// share one.
import { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { afterEach, expect, it } from 'vitest';
import { headerMap } from '../src/transports/http/header-map.ts';
import { httpFixture } from './support/http-fixture.ts';
import { JSON_AND_SSE, nodeSurface, openSession, type Surface } from './support/http-surfaces.ts';

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;

let surface: Surface | undefined;
const writeHead = ServerResponse.prototype.writeHead;
afterEach(async () => {
  ServerResponse.prototype.writeHead = writeHead;
  await surface?.close();
  surface = undefined;
});

/** Every header object node:http is handed from now on, by `writeHead`. */
function recordHeaders(): object[] {
  const seen: object[] = [];
  ServerResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg) => typeof arg === 'object' && arg !== null);
    if (headers) seen.push(headers);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof writeHead;
  return seen;
}

it('answers in different sessions hand node:http headers of one hidden class', async () => {
  surface = await nodeSurface(httpFixture());
  const sessions = [await openSession(surface), await openSession(surface)];
  const seen = recordHeaders();
  // V8 hands out the new maps once the spread's inline cache has seen a few objects.
  const rounds = 20;
  let id = 10;
  for (let round = 0; round < rounds; round++) {
    for (const session of sessions) {
      const res = await surface.send({
        method: 'POST',
        path: '/mcp',
        headers: { ...JSON_AND_SSE, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'ping' }),
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(await res.text()).result).toEqual({});
    }
  }
  expect(seen).toHaveLength(2 * rounds);
  expect(seen.map((headers) => Object.keys(headers))).toEqual(
    Array(2 * rounds).fill(['mcp-session-id', 'content-type', 'content-length']),
  );
  expect(seen.map((headers) => haveSameMap(headers, seen[0]!))).toEqual(
    Array(2 * rounds).fill(true),
  );
});

it('headerMap copies base, then extra, then the named header, each overriding', () => {
  const base = { a: '1', b: '2' };
  const merged = headerMap(base, { b: '3', c: '4' }, 'a', '5');
  expect(merged).toEqual({ a: '5', b: '3', c: '4' });
  expect(Object.keys(merged)).toEqual(['a', 'b', 'c']);
  expect(base).toEqual({ a: '1', b: '2' });
  const made = Array.from({ length: 50 }, (_, i) =>
    headerMap({ 'mcp-session-id': `s${i}` }, undefined, 'content-type', 'application/json'),
  );
  expect(made.filter((headers) => !haveSameMap(headers, made[0]!))).toEqual([]);
});
