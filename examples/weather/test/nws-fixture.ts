import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fixture received. */
export interface FixtureRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  accept: string | undefined;
}

/** A running stand-in for api.weather.gov on 127.0.0.1. */
export interface NwsFixture {
  readonly baseUrl: string;
  /** Every request so far, in order. */
  readonly requests: FixtureRequest[];
  close(): Promise<void>;
}

const ROUTES: Record<string, { status: number; file: string }> = {
  '/alerts/active/area/CA': { status: 200, file: 'alerts-ca.json' },
  '/alerts/active/area/VT': { status: 200, file: 'alerts-vt.json' },
  '/alerts/active/area/TX': { status: 500, file: 'problem-500.json' },
  '/points/38.8894,-77.0352': { status: 200, file: 'points-dc.json' },
  '/gridpoints/LWX/97,71/forecast': { status: 200, file: 'forecast-lwx.json' },
  '/points/0,0': { status: 404, file: 'problem-404-point.json' },
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  404: 'Not Found',
  500: 'Internal Server Error',
};

/**
 * Serves the recorded-shape JSON in `fixtures/` for the endpoints the weather tools use, with
 * every `https://api.weather.gov` link rewritten to the fixture's own address (as the real API
 * links to itself). Anything else is a 404 problem, as on the real API.
 */
export async function startNwsFixture(): Promise<NwsFixture> {
  const requests: FixtureRequest[] = [];
  let baseUrl = '';
  const server = createServer((req, res) => {
    const path = decodeURI(req.url ?? '/');
    requests.push({
      method: req.method ?? '',
      path,
      userAgent: req.headers['user-agent'],
      accept: req.headers.accept,
    });
    const route = ROUTES[path];
    const status = route?.status ?? 404;
    const body = route
      ? readFileSync(new URL(`fixtures/${route.file}`, import.meta.url), 'utf8').replaceAll(
          'https://api.weather.gov',
          baseUrl,
        )
      : JSON.stringify({
          title: 'Not Found',
          type: 'https://api.weather.gov/problems/NotFound',
          status: 404,
          detail: `'${path}' is not a valid resource path`,
        });
    res.writeHead(status, STATUS_TEXT[status], {
      'Content-Type': status === 200 ? 'application/geo+json' : 'application/problem+json',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
