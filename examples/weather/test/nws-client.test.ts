import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrlFrom } from '../src/base-url.ts';
import { NwsClient, NwsError } from '../src/nws-client.ts';
import { startNwsFixture, type NwsFixture } from './nws-fixture.ts';

describe('NwsClient against the local fixture', () => {
  let fixture: NwsFixture;
  beforeAll(async () => {
    fixture = await startNwsFixture();
  });
  afterAll(() => fixture.close());

  it('follows links the API returns on its own origin', async () => {
    const nws = new NwsClient(new URL(fixture.baseUrl));
    const grid = await nws.get<{ properties: { forecast: string } }>('/points/38.8894,-77.0352');
    expect(grid.properties.forecast).toBe(`${fixture.baseUrl}/gridpoints/LWX/97,71/forecast`);
    const forecast = await nws.get<{ properties: { periods: unknown[] } }>(
      grid.properties.forecast,
    );
    expect(forecast.properties.periods).toHaveLength(6);
  });

  it('refuses links to another origin without requesting them', async () => {
    const nws = new NwsClient(new URL(fixture.baseUrl));
    const before = fixture.requests.length;
    await expect(nws.get('https://evil.example/gridpoints/LWX/97,71/forecast')).rejects.toEqual(
      new NwsError(
        `The National Weather Service API linked to https://evil.example, outside ${fixture.baseUrl}; not followed`,
      ),
    );
    expect(fixture.requests.length).toBe(before);
  });

  it('keeps a base URL path prefix (an API behind a proxy)', async () => {
    const nws = new NwsClient(new URL(`${fixture.baseUrl}/nws/`));
    await expect(nws.get('/alerts/active/area/VT')).rejects.toMatchObject({
      status: 404,
      message: `The National Weather Service API answered 404 Not Found for GET /nws/alerts/active/area/VT: '/nws/alerts/active/area/VT' is not a valid resource path`,
    });
  });
});

it('reports an unreachable API with its address and the reason', async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const nws = new NwsClient(new URL(`http://127.0.0.1:${port}`));
  await expect(nws.get('/alerts/active/area/CA')).rejects.toEqual(
    new NwsError(
      `Could not reach the National Weather Service API at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    ),
  );
});

describe('baseUrlFrom', () => {
  it.each([
    [[], {}, 'https://api.weather.gov/'],
    [[], { NWS_BASE_URL: 'http://127.0.0.1:8080' }, 'http://127.0.0.1:8080/'],
    [
      ['--base-url', 'https://nws.example/api'],
      { NWS_BASE_URL: 'http://127.0.0.1:8080' },
      'https://nws.example/api',
    ],
    [['--base-url=http://localhost:1'], {}, 'http://localhost:1/'],
    [['--http', '--port', '3000', '--base-url', 'http://localhost:1'], {}, 'http://localhost:1/'],
  ])('%j with %j → %s', (args, env, url) => {
    expect(baseUrlFrom(args, env).href).toBe(url);
  });

  it.each([
    [
      ['--base-url', 'ftp://nws.example'],
      'the NWS base URL must be an http(s) URL, got "ftp://nws.example"',
    ],
    [['--base-url', 'not a url'], 'the NWS base URL must be an http(s) URL, got "not a url"'],
    [['--verbose'], "Unknown option '--verbose'"],
    [['north'], "Unexpected argument 'north'"],
  ])('refuses %j', (args, message) => {
    expect(() => baseUrlFrom(args, {})).toThrow(message);
  });
});
