import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWK,
  type JWTPayload,
  type CryptoKey,
} from 'jose';

/** A signing key with its public JWK (`kid`, `alg`, `use` set). */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly jwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicKey, jwk };
}

/**
 * A real key-set server on 127.0.0.1 (what an issuer's `jwks_uri` is): serves `keys` and counts
 * fetches, so tests see the verifier's cache and refetches; `status` makes it fail.
 */
export async function jwksServer(
  keys: () => JWK[],
  status: () => number = () => 200,
): Promise<{ url: string; fetches: () => number; close(): Promise<void> }> {
  let fetches = 0;
  const server: Server = createServer((_req, res) => {
    fetches++;
    // An issuer in trouble (`status` other than 200) answers that status and no key set.
    const code = status();
    if (code !== 200) return void res.writeHead(code).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: keys() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JWT signed with `key` (RS256), issued now for an hour unless `claims` says otherwise. */
export function sign(
  key: SigningKey,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt', ...header })
    .sign(key.privateKey);
}
