import { constants, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { getJson, found, type DoctorCheck, type Json } from './doctor-http.js';

/** How each JWS algorithm verifies with node:crypto. */
const ALGORITHMS: Record<string, { hash: string | null; ec?: boolean; pss?: boolean }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  PS256: { hash: 'sha256', pss: true },
  PS384: { hash: 'sha384', pss: true },
  PS512: { hash: 'sha512', pss: true },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
  EdDSA: { hash: null },
  Ed25519: { hash: null },
};

/**
 * Checks an access token the user got (`--token`) against what the server publishes, without
 * sending it anywhere: its issuer is one the resource lists, the key set that issuer's
 * metadata names serves the key it is signed with (by `kid`) and the signature verifies with
 * it, and it is for this resource (`aud`) and current (`exp`). This is how a key the
 * authorization server signs with but does not publish (instances behind a load balancer with
 * different keys, a rotated key not yet served) shows before clients see 401s.
 */
export async function tokenKeyChecks(
  token: string,
  resource: string,
  issuers: ReadonlyMap<string, Json>,
  fetchFn: typeof fetch,
): Promise<DoctorCheck[]> {
  const parts = token.split('.');
  const header = parts.length === 3 ? decode(parts[0]) : undefined;
  const payload = parts.length === 3 ? decode(parts[1]) : undefined;
  if (!header || !payload)
    return [
      {
        name: 'the token is a JWT',
        ok: false,
        detail: 'not three base64url JSON parts',
        fix: 'Pass the access token itself (a JWT, three dot-separated parts) with --token; opaque tokens are checked by introspection, not by keys.',
      },
    ];
  const checks: DoctorCheck[] = [];
  const iss = typeof payload.iss === 'string' ? payload.iss : undefined;
  const metadata = iss === undefined ? undefined : issuers.get(iss);
  checks.push({
    name: "the token's issuer is listed",
    ok: metadata !== undefined,
    detail: `iss is ${iss ?? '(missing)'}`,
    fix:
      metadata !== undefined
        ? undefined
        : `The resource lists ${[...issuers.keys()].join(', ') || 'no reachable authorization server'}: a token from ${iss ?? 'no issuer'} is refused. Get the token from a listed authorization server, or list its issuer.`,
  });
  const jwksUri = typeof metadata?.jwks_uri === 'string' ? metadata.jwks_uri : undefined;
  if (metadata && jwksUri) {
    const name = `the key set serves the key the token is signed with (${iss})`;
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const alg = typeof header.alg === 'string' ? header.alg : '(none)';
    const result = await getJson(jwksUri, fetchFn);
    const keys = Array.isArray(result.json?.keys) ? (result.json.keys as Json[]) : [];
    const key =
      kid === undefined
        ? keys.length === 1
          ? keys[0]
          : undefined
        : keys.find((k) => k.kid === kid);
    let problem: string | undefined;
    if (!result.json) problem = `${jwksUri}: ${found(result)}`;
    else if (!key)
      problem = `${jwksUri} serves ${keys.map((k) => String(k.kid ?? '(no kid)')).join(', ') || 'no keys'}, not ${kid ?? 'a single key for a token without kid'}`;
    else if (!verifies(parts, alg, key))
      problem = `the signature does not verify with the served key ${kid ?? ''} (${alg}): the token was signed with another key under that kid`;
    checks.push({
      name,
      ok: problem === undefined,
      detail: problem ?? `${jwksUri} serves ${kid ?? 'its key'}, and the ${alg} signature verifies`,
      fix:
        problem === undefined
          ? undefined
          : `Serve the key the authorization server signs with at ${jwksUri}: every instance must sign with the same key (authorizationServer's signingKey, with a shared store) and publish it before signing with it.`,
    });
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const canonical = resource.replace(/\/$/, '');
  const forResource = audiences.some(
    (a) => typeof a === 'string' && a.replace(/\/$/, '') === canonical,
  );
  const exp = typeof payload.exp === 'number' ? payload.exp : undefined;
  const expired = exp !== undefined && exp * 1000 < Date.now();
  checks.push({
    name: 'the token is for this resource, and current',
    ok: forResource && !expired,
    detail: `aud ${JSON.stringify(payload.aud)}${exp === undefined ? ', no exp' : expired ? `, expired ${new Date(exp * 1000).toISOString()}` : `, valid until ${new Date(exp * 1000).toISOString()}`}`,
    fix: !forResource
      ? `The server refuses a token whose aud is not ${canonical} (RFC 8707): the client must send resource=${canonical} when it asks for the token, and the authorization server must put it in aud.`
      : expired
        ? 'Get a fresh token: this one has expired.'
        : undefined,
  });
  return checks;
}

function decode(part: string): Json | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

function verifies(parts: string[], alg: string, jwk: Json): boolean {
  const how = ALGORITHMS[alg];
  if (!how) return false;
  try {
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    return verify(
      how.hash,
      Buffer.from(`${parts[0]}.${parts[1]}`),
      how.ec
        ? { key, dsaEncoding: 'ieee-p1363' }
        : how.pss
          ? {
              key,
              padding: constants.RSA_PKCS1_PSS_PADDING,
              saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
            }
          : key,
      Buffer.from(parts[2], 'base64url'),
    );
  } catch {
    return false;
  }
}
