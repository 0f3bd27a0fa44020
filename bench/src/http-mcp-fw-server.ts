// mcp-fw over Streamable HTTP: serveHttp with its defaults (Origin/Host checks, sessions, both eras).
// With --jwt it is an OAuth protected resource (@mcp-fw/auth, RS256 JWTs, keys from a local JWKS
// served by this process and cached after the first request); the token the client must send is
// announced in the URL's fragment.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveHttp } from '@mcp-fw/core/node';
import { announce } from './http-server-life.js';
import { benchServer } from './mcp-fw-tools.js';

// Every subject keeps idle connections for a minute: the harness's connections to one subject
// wait while the others are measured.
const keepAliveTimeoutMs = 60_000;

if (!process.argv.includes('--jwt')) {
  const { url } = await serveHttp(benchServer(), { port: 0, keepAliveTimeoutMs });
  announce(url);
} else {
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
  const { jwtVerifier, oauthResource } = await import('@mcp-fw/auth');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const keys = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
  // The canonical URL names the port, so the port is taken first.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const resource = `http://127.0.0.1:${port}/mcp`;
  const issuer = 'https://issuer.bench';
  const jwksUri = `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`;
  const { url } = await serveHttp(benchServer(), {
    port,
    keepAliveTimeoutMs,
    ...oauthResource({
      resource,
      authorizationServers: [issuer],
      verifier: jwtVerifier({ issuer, jwksUri, audience: resource }),
    }),
  });
  const token = await new SignJWT({ sub: 'bench', scope: 'bench' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  announce(`${url}#bearer=${token}`);
}
