import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationError, connect, oauth, type OAuthOptions } from '@mcp-fw/client';

// Hostile metadata and redirects, each refused with a typed AuthorizationError naming what went
// wrong, before anything is sent where it should not go. The "internet" is a few loopback HTTP
// servers standing in for public host names (mcp.example.com, auth.example.com…) through a
// fetch that maps each name to its server, so the client sees public https URLs.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Every request any host received: `host path authorization`. */
let log: string[] = [];

/** Loopback servers for `hosts`, and a fetch that reaches them by their public names. */
async function internet(hosts: Record<string, Handler>) {
  log = [];
  const ports = new Map<string, number>();
  for (const [host, handler] of Object.entries(hosts)) {
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      log.push(`${host} ${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      handler(req, res, body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    ports.set(host, (server.address() as AddressInfo).port);
  }
  const mapped: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const port = ports.get(url.hostname);
    if (port === undefined) {
      log.push(`${url.hostname} UNREACHABLE ${url.pathname}`);
      return Promise.reject(new TypeError(`fetch failed: no route to ${url.hostname}`));
    }
    return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
  };
  return { fetch: mapped, port: (host: string) => ports.get(host) as number };
}

const SERVER = 'https://mcp.example.com/mcp';
const PRM = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
const REDIRECT = 'http://127.0.0.1:9/callback';

function json(res: ServerResponse, status: number, value: unknown, headers = {}) {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(value));
}

/** An MCP server that wants a token, with `prm` as its resource metadata. */
function protectedServer(
  prm: Record<string, unknown>,
  challenge = `Bearer resource_metadata="${PRM}"`,
): Handler {
  return (req, res) => {
    if (req.url === new URL(PRM).pathname) return json(res, 200, prm);
    json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
  };
}

/** An authorization server at `issuer`, whose metadata may lie. */
function authorizationServer(issuer: string, overrides: Record<string, unknown> = {}): Handler {
  return (req, res) => {
    if (req.url?.startsWith('/.well-known/'))
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        ...overrides,
      });
    if (req.url === '/register') return json(res, 201, { client_id: 'registered' });
    if (req.url === '/token')
      return json(res, 200, { access_token: 'the-token', token_type: 'Bearer', expires_in: 600 });
    json(res, 404, {});
  };
}

async function refusal(
  net: { fetch: typeof fetch },
  options: OAuthOptions = {},
): Promise<AuthorizationError> {
  const error = await connect(SERVER, {
    fetch: net.fetch,
    auth: oauth({
      fetch: net.fetch,
      redirectUrl: REDIRECT,
      onAuthorizationUrl: () => REDIRECT,
      ...options,
    }),
    timeoutMs: 10_000,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe('hostile authorization metadata', () => {
  it('an authorization server on a private address, named by a public server, is refused (private-address)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer({
        resource: SERVER,
        authorization_servers: ['https://192.168.1.10'],
      }),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('private-address');
    expect(error.message).toContain('https://192.168.1.10/');
    expect(error.message).toContain('allowPrivateNetwork: true');
    expect(log.filter((line) => line.includes('192.168'))).toEqual([]);
  });

  it('a public authorization server whose token endpoint is on a private address is refused (private-address)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer({
        resource: SERVER,
        authorization_servers: ['https://auth.example.com'],
      }),
      'auth.example.com': authorizationServer('https://auth.example.com', {
        token_endpoint: 'http://10.0.0.5/token',
      }),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('private-address');
    expect(error.message).toContain('token endpoint of https://auth.example.com');
    expect(log.some((line) => line.includes('/register') || line.includes('10.0.0.5'))).toBe(false);
  });

  it('authorization server metadata whose issuer is another server is refused (issuer-mismatch)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer({
        resource: SERVER,
        authorization_servers: ['https://auth.example.com'],
      }),
      'auth.example.com': authorizationServer('https://evil.example.com'),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('issuer-mismatch');
    expect(error.message).toContain(
      'claims issuer "https://evil.example.com", not "https://auth.example.com"',
    );
    expect(log.some((line) => line.includes('/register') || line.includes('/token'))).toBe(false);
  });

  it('protected resource metadata whose resource names another server is refused (resource-mismatch)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer({
        resource: 'https://other.example.com/mcp',
        authorization_servers: ['https://auth.example.com'],
      }),
      'auth.example.com': authorizationServer('https://auth.example.com'),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('resource-mismatch');
    expect(error.message).toContain(
      'is for "https://other.example.com/mcp", not for https://mcp.example.com/mcp',
    );
    expect(log.some((line) => line.startsWith('auth.example.com'))).toBe(false);
  });

  it('a WWW-Authenticate with an injected second resource_metadata is refused (bad-challenge)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer(
        { resource: SERVER, authorization_servers: ['https://auth.example.com'] },
        `Bearer resource_metadata="${PRM}", scope="read", resource_metadata="https://evil.example.com/prm"`,
      ),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('bad-challenge');
    expect(error.message).toContain('parameter resource_metadata is given twice');
    expect(log.filter((line) => !line.startsWith('mcp.example.com POST'))).toEqual([]);
  });

  it('a WWW-Authenticate pointing resource_metadata at another origin is refused (bad-challenge)', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer(
        { resource: SERVER, authorization_servers: ['https://auth.example.com'] },
        'Bearer resource_metadata="https://evil.example.com/.well-known/oauth-protected-resource"',
      ),
    });
    const error = await refusal(net);
    expect(error.reason).toBe('bad-challenge');
    expect(error.message).toContain('another origin (https://evil.example.com/');
    expect(log.some((line) => line.includes('evil.example.com'))).toBe(false);
  });

  it('a quoted scope that contains a fake parameter is a value, not an injected parameter', async () => {
    const net = await internet({
      'mcp.example.com': protectedServer(
        { resource: SERVER, authorization_servers: ['https://auth.example.com'] },
        `Bearer resource_metadata="${PRM}", scope="read\\", resource_metadata=\\"https://evil.example.com/x"`,
      ),
      'auth.example.com': authorizationServer('https://auth.example.com'),
    });
    let asked: URL | undefined;
    const error = await refusal(net, {
      onAuthorizationUrl: (url) => {
        asked = url;
        return `${REDIRECT}?code=c&state=wrong`;
      },
    });
    expect(asked?.searchParams.get('scope')).toBe(
      'read", resource_metadata="https://evil.example.com/x',
    );
    expect(error.reason).toBe('state-mismatch');
    expect(log.some((line) => line.includes('evil.example.com'))).toBe(false);
  });
});

describe('hostile redirects', () => {
  async function redirectedWith(params: (sent: URL) => string) {
    const net = await internet({
      'mcp.example.com': protectedServer({
        resource: SERVER,
        authorization_servers: ['https://auth.example.com'],
      }),
      'auth.example.com': authorizationServer('https://auth.example.com'),
    });
    const error = await refusal(net, {
      onAuthorizationUrl: (url) => `${REDIRECT}?${params(url)}`,
    });
    expect(log.some((line) => line.includes('/token'))).toBe(false);
    return error;
  }

  it('a redirect whose iss names another authorization server is refused (iss-mismatch, a mix-up attack)', async () => {
    const error = await redirectedWith(
      (sent) => `code=c&state=${sent.searchParams.get('state')}&iss=https%3A%2F%2Fevil.example.com`,
    );
    expect(error.reason).toBe('iss-mismatch');
    expect(error.message).toContain(
      'iss "https://evil.example.com", not the authorization server\'s issuer "https://auth.example.com"',
    );
  });

  it('a redirect without iss from a server that promises it is refused (iss-mismatch)', async () => {
    const error = await redirectedWith((sent) => `code=c&state=${sent.searchParams.get('state')}`);
    expect(error.reason).toBe('iss-mismatch');
    expect(error.message).toContain('without iss');
  });

  it('a redirect carrying another state is refused (state-mismatch, a forged redirect)', async () => {
    const error = await redirectedWith(
      () => 'code=c&state=forged&iss=https%3A%2F%2Fauth.example.com',
    );
    expect(error.reason).toBe('state-mismatch');
  });
});

describe('an authorization server that never answers', () => {
  it('fails the sign-in after requestTimeoutMs, naming the token endpoint', async () => {
    const issuer = 'https://auth.example.com';
    const metadata = authorizationServer(issuer);
    const net = await internet({
      'mcp.example.com': protectedServer({ resource: SERVER, authorization_servers: [issuer] }),
      // Answers its metadata and registration, then never the token request.
      'auth.example.com': (req, res, body) => {
        if (req.url !== '/token') metadata(req, res, body);
      },
    });
    const started = Date.now();
    const error = await refusal(net, {
      requestTimeoutMs: 500,
      onAuthorizationUrl: (url) =>
        `${REDIRECT}?code=c&state=${url.searchParams.get('state')}&iss=https%3A%2F%2Fauth.example.com`,
    });
    expect(error.reason).toBe('token-request');
    expect(error.message).toContain(
      'Cannot reach the token endpoint https://auth.example.com/token',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('where tokens go', () => {
  it('a token is never sent to a host it was not issued for', async () => {
    let otherPort = 0;
    const net = await internet({
      'mcp.example.com': (req, res) => {
        if (req.url === new URL(PRM).pathname)
          return json(res, 200, {
            resource: SERVER,
            authorization_servers: ['https://auth.example.com'],
          });
        if (req.headers.authorization !== 'Bearer the-token')
          return json(res, 401, {}, { 'www-authenticate': `Bearer resource_metadata="${PRM}"` });
        // A server that bounces the request (with the token) to another origin.
        if (req.url === '/bounce')
          return res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/stolen` }).end();
        json(res, 200, { ok: true });
      },
      'auth.example.com': authorizationServer('https://auth.example.com'),
      'other.example.com': (_req, res) => json(res, 200, { ok: true }),
    });
    otherPort = net.port('other.example.com');
    const auth = oauth({
      fetch: net.fetch,
      redirectUrl: REDIRECT,
      onAuthorizationUrl: (url) =>
        `${REDIRECT}?code=c&state=${url.searchParams.get('state')}&iss=https%3A%2F%2Fauth.example.com`,
    });
    const send = auth.fetchFor(new URL(SERVER), net.fetch);
    const post = (url: string) => send(url, { method: 'POST', body: '{}' }).then((r) => r.json());

    expect(await post(SERVER)).toEqual({ ok: true });
    expect(log).toContain('mcp.example.com POST /mcp Bearer the-token');
    // The same client asked to reach another host (a legacy SSE endpoint event could name one).
    expect(await post('https://other.example.com/mcp')).toEqual({ ok: true });
    expect(log).toContain('other.example.com POST /mcp -');
    // A path outside the resource on the same host does not get it either.
    await send('https://mcp.example.com/admin', { method: 'POST', body: '{}' }).then((r) =>
      r.body?.cancel(),
    );
    expect(log).toContain('mcp.example.com POST /admin -');
    // A redirect to another origin drops it.
    await send('https://mcp.example.com/mcp/bounce', { method: 'POST', body: '{}' }).then((r) =>
      r.body?.cancel(),
    );
    expect(
      log.filter((line) => line.startsWith('other.example.com') && line.includes('the-token')),
    ).toEqual([]);
  });
});
