// What verifying a JWT access token costs per request, with the issuer's keys cached: the
// `authenticate` step oauthResource adds to every HTTP request (parse the Authorization header,
// RS256 / ES256 signature check, iss/aud/exp/nbf), in process, one request after another.
// Usage: `node bench/dist/jwt-cost.js [calls]` (after `npx tsc -b`).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { jwtVerifier, oauthResource } from '@mcp-fw/auth';
import type { HttpRequestView } from '@mcp-fw/core/http';

const calls = Number(process.argv[2] ?? 20_000);
const resource = 'http://127.0.0.1:3000/mcp';
const issuer = 'https://issuer.bench';

for (const alg of ['RS256', 'ES256'] as const) {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg, use: 'sig' };
  const jwks = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  const { authenticate } = oauthResource({
    resource,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, jwksUri, audience: resource }),
  });
  const token = await new SignJWT({ sub: 'alice', scope: 'notes:read', client_id: 'app' })
    .setProtectedHeader({ alg, kid: 'k' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const request: HttpRequestView = {
    method: 'POST',
    url: new URL(resource),
    path: '/mcp',
    onAbort: () => {},
    header: (name) => (name === 'authorization' ? `Bearer ${token}` : undefined),
    text: async () => '',
    signal: new AbortController().signal,
  };
  const once = async () => {
    const outcome = await authenticate(request);
    if ('reject' in outcome) throw new Error(`the token was refused: ${outcome.reject.message}`);
  };
  for (let i = 0; i < 2_000; i++) await once(); // warm-up; the first call fetches the keys
  const started = performance.now();
  for (let i = 0; i < calls; i++) await once();
  const us = ((performance.now() - started) * 1000) / calls;
  process.stdout.write(
    `${alg}: ${us.toFixed(1)} µs per request (${calls} verifications, keys cached)\n`,
  );
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
}
