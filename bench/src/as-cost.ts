// What our own authorization server (`authorizationServer` of `@mcp-fw/auth/server`) costs the
// MCP server, in process, in one run: the token endpoint (a refresh-token grant: take, rotate,
// sign; the client credentials grant with a secret and with private_key_jwt), and the `authenticate` step of a call with our own token (ES256 signature, claims, the
// sign-in's liveness in the store) next to today's JWKS-verified call (jwtVerifier, keys cached).
// CPU per call is this process's user + system time over the calls. One sign-in goes through
// the development upstream IdP (oidc-provider) by HTTP first, to get the first refresh token.
// Usage: `node bench/dist/as-cost.js [calls]` (after `npx tsc -b`).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { devUpstreamProvider } from '@mcp-fw/auth/dev';
import { authorizationServer, oidcUpstream } from '@mcp-fw/auth/server';
import type { HttpRequestView } from '@mcp-fw/core/http';

const calls = Number(process.argv[2] ?? 5_000);
const REDIRECT = 'http://127.0.0.1:9/callback';
const MACHINE_SECRET = 'bench-machine-secret-0123456789abcdef0123';
const machineKey = await generateKeyPair('ES256', { extractable: true });

/** A request as the HTTP endpoint hands it to `routes` / `authenticate`. */
function request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body = '',
): HttpRequestView {
  const parsed = new URL(url);
  return {
    method,
    url: parsed,
    path: parsed.pathname,
    onAbort: () => {},
    header: (name) => headers[name],
    text: async () => body,
    signal: new AbortController().signal,
  };
}

// The AS is served on a real port for the sign-in (the upstream redirects a browser to it).
const front = createServer();
await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
const resource = `${origin}/mcp`;
const idp = await devUpstreamProvider({ redirectUri: `${origin}/oauth/callback` });
const as = await authorizationServer({
  resource,
  scopes: ['notes:read'],
  upstream: oidcUpstream({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
  }),
  clients: [
    { clientId: 'bench', redirectUris: [REDIRECT] },
    { clientId: 'bench-secret', clientSecret: MACHINE_SECRET, grantTypes: ['client_credentials'] },
    {
      clientId: 'bench-jwt',
      jwks: { keys: [{ ...(await exportJWK(machineKey.publicKey)), kid: 'm', alg: 'ES256' }] },
      grantTypes: ['client_credentials'],
    },
  ],
  // Counted as in production (the cost is measured), with budgets the bench's thousands of
  // refreshes from one address and client cannot spend.
  rateLimits: {
    perAddress: { max: 1e9, perMs: 60_000 },
    perClient: { max: 1e9, perMs: 60_000 },
  },
});
front.on('request', async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
  const reply = await as.routes(request(req.method!, `${origin}${req.url}`, headers, body));
  res.writeHead(reply?.status ?? 404, reply?.headers).end(reply?.body);
});

/** One sign-in, as a browser: follows redirects, fills the upstream's forms and allows on ours. */
async function signIn(): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const cookies = new Map<string, string>();
  let url = `${origin}/oauth/authorize?response_type=code&client_id=bench&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${challenge}&code_challenge_method=S256&scope=notes:read`;
  let init: RequestInit = {};
  for (let hop = 0; hop < 30 && !url.startsWith(REDIRECT); hop++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    init = {};
    const location = response.headers.get('location');
    const html = await response.text();
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    if (!form) throw new Error(`the sign-in stopped at ${url}: ${response.status}`);
    const fields = new URLSearchParams();
    for (const input of form[2].matchAll(/<input([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1])?.[1];
      if (name)
        fields.set(name, (/value="([^"]*)"/.exec(input[1])?.[1] ?? '').replace(/&amp;/g, '&'));
    }
    if (fields.get('prompt') === 'login') fields.set('login', 'alice');
    if (fields.has('csrf')) fields.set('decision', 'allow');
    url = new URL(form[1].replace(/&amp;/g, '&'), url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    };
  }
  const code = new URL(url).searchParams.get('code');
  if (!code) throw new Error(`no code: ${url}`);
  const tokens = (await (
    await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: 'bench',
      }),
    })
  ).json()) as { refresh_token: string };
  return tokens.refresh_token;
}

/** µs and CPU µs per call of `once`, after a warm-up. */
async function measure(once: () => Promise<void>, n: number): Promise<{ us: number; cpu: number }> {
  for (let i = 0; i < Math.min(500, n); i++) await once();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await once();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { us: (wall * 1000) / n, cpu: (cpu.user + cpu.system) / n };
}

// The token endpoint: each refresh rotates, so each call presents the token the last one gave.
let refreshToken = await signIn();
let accessToken = '';
const token = await measure(
  async () => {
    const reply = await as.routes(
      request(
        'POST',
        `${origin}/oauth/token`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: 'bench',
        }).toString(),
      ),
    );
    if (reply?.status !== 200) throw new Error(`the refresh failed: ${reply?.body}`);
    const body = JSON.parse(reply.body!) as { refresh_token: string; access_token: string };
    refreshToken = body.refresh_token;
    accessToken = body.access_token;
  },
  Math.ceil(calls / 5),
);

// Machine to machine: the client credentials grant, with a secret (client_secret_basic: hash,
// compare, sign) and with private_key_jwt (verify the client's ES256 assertion, remember its
// jti, sign). Each assertion is fresh: a jti is used once.
const basicAuth = `Basic ${btoa(`bench-secret:${MACHINE_SECRET}`)}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const secretGrant = await measure(
  async () => {
    const reply = await as.routes(
      request(
        'POST',
        `${origin}/oauth/token`,
        { ...form, authorization: basicAuth },
        'grant_type=client_credentials',
      ),
    );
    if (reply?.status !== 200) throw new Error(`client credentials failed: ${reply?.body}`);
  },
  Math.ceil(calls / 5),
);
const keyGrant = await measure(
  async () => {
    const assertion = await new SignJWT({ jti: randomBytes(12).toString('base64url') })
      .setProtectedHeader({ alg: 'ES256', kid: 'm' })
      .setIssuer('bench-jwt')
      .setSubject('bench-jwt')
      .setAudience(origin)
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(machineKey.privateKey);
    const reply = await as.routes(
      request(
        'POST',
        `${origin}/oauth/token`,
        form,
        new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }).toString(),
      ),
    );
    if (reply?.status !== 200) throw new Error(`private_key_jwt failed: ${reply?.body}`);
  },
  Math.ceil(calls / 5),
);

// A call's authenticate step with our own token.
const ours = as.protect();
const withOurs = request('POST', resource, { authorization: `Bearer ${accessToken}` });
const own = await measure(async () => {
  const outcome = await ours.authenticate(withOurs);
  if ('reject' in outcome) throw new Error(`our token was refused: ${outcome.reject.message}`);
}, calls);

// Today's path: a token of an external issuer, verified with its cached JWKS (ES256, like ours).
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES256', use: 'sig' };
const jwks = createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
);
await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
const issuer = 'https://issuer.bench';
const external = oauthResource({
  resource,
  authorizationServers: [issuer],
  verifier: jwtVerifier({
    issuer,
    jwksUri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
    audience: resource,
  }),
});
const externalToken = await new SignJWT({ sub: 'alice', scope: 'notes:read', client_id: 'app' })
  .setProtectedHeader({ alg: 'ES256', kid: 'k' })
  .setIssuer(issuer)
  .setAudience(resource)
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(privateKey);
const withExternal = request('POST', resource, { authorization: `Bearer ${externalToken}` });
const jwksCall = await measure(async () => {
  const outcome = await external.authenticate(withExternal);
  if ('reject' in outcome) throw new Error(`the JWKS token was refused: ${outcome.reject.message}`);
}, calls);

const row = (name: string, m: { us: number; cpu: number }) =>
  `| ${name} | ${m.us.toFixed(1)} | ${m.cpu.toFixed(1)} |`;
process.stdout.write(
  [
    '| per call, in process | µs | CPU µs |',
    '|---|---|---|',
    row('token endpoint: refresh grant (rotate + sign ES256)', token),
    row('token endpoint: client credentials, client_secret_basic', secretGrant),
    row(
      'token endpoint: client credentials, private_key_jwt (incl. signing the assertion)',
      keyGrant,
    ),
    row('authenticate: our own token (ES256 + sign-in alive in the memory store)', own),
    row('authenticate: external token, JWKS cached (ES256, jwtVerifier)', jwksCall),
    `own / JWKS CPU: ${(own.cpu / jwksCall.cpu).toFixed(2)}`,
    '',
  ].join('\n'),
);
await idp.close();
front.closeAllConnections();
front.close();
jwks.close();
