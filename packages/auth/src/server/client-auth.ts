import type { HttpRequestView } from '@mcp-fw/core/http';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors,
  type JSONWebKeySet,
  jwtVerify,
} from 'jose';
import { ClientError, type KnownClient } from './clients.js';
import type { ServerContext } from './context.js';
import { same, sha256 } from './crypto.js';

/** RFC 7523 §2.2: the `client_assertion_type` of `private_key_jwt`. */
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Asymmetric algorithms only: a shared-secret (HS*) assertion would make the key a secret. */
export const ASSERTION_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
];
/** Longest lifetime accepted for an assertion: its jti is remembered until it expires. */
const MAX_ASSERTION_SECONDS = 3600;

type KeyLookup = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>;
const keySets = new WeakMap<KnownClient, KeyLookup>();

/** The key lookup of a `private_key_jwt` client: its inline JWKS, or its `jwks_uri`, cached. */
function keysOf(client: KnownClient): KeyLookup {
  let keys = keySets.get(client);
  if (!keys) {
    keys = client.jwks
      ? createLocalJWKSet(client.jwks as JSONWebKeySet)
      : createRemoteJWKSet(new URL(client.jwksUri!), { timeoutDuration: 5000 });
    keySets.set(client, keys);
  }
  return keys;
}

/**
 * Remembers `jti` (of `issuer`) until `exp`; false when it was seen already. Atomic where the
 * store offers `setIfAbsent` (Redis: `SET NX`), so a replay is refused across instances too.
 */
export async function firstUse(
  ctx: ServerContext,
  kind: string,
  issuer: string,
  jti: string,
  exp: number,
): Promise<boolean> {
  const key = `jti:${kind}:${await sha256(`${issuer}\0${jti}`)}`;
  const ttl = Math.max(1000, exp * 1000 - Date.now() + 60_000);
  if (ctx.store.setIfAbsent) return ctx.store.setIfAbsent(key, '1', ttl);
  if (await ctx.store.get(key)) return false;
  await ctx.store.set(key, '1', ttl);
  return true;
}

/**
 * The client a token or revocation request comes from: `client_secret_basic`, the
 * `client_id` and `client_secret` of the body (`client_secret_post`), a signed assertion
 * (`private_key_jwt`, RFC 7523 §2.2: iss = sub = the client, aud = our issuer or token
 * endpoint, a jti used once), or a public client's `client_id`. A confidential client must
 * prove itself; a public one may not claim a secret.
 */
export async function authenticateClient(
  ctx: ServerContext,
  req: HttpRequestView,
  f: URLSearchParams,
): Promise<KnownClient> {
  let id = f.get('client_id') ?? undefined;
  let secret = f.get('client_secret') ?? undefined;
  const assertion = f.get('client_assertion') ?? undefined;
  const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(req.header('authorization') ?? '');
  // RFC 6749 §2.3.1 form-encodes id and secret before Basic; many clients send them raw (a
  // base64 secret's `+` and `/` included): the secret matches either way.
  let rawSecret: string | undefined;
  if (basic) {
    let decoded: string;
    try {
      decoded = atob(basic[1]);
    } catch {
      decoded = '';
    }
    const colon = decoded.indexOf(':');
    if (colon < 0)
      throw new ClientError(
        'invalid_client',
        'the Authorization header is not Basic base64(client_id:client_secret)',
      );
    id = formDecoded(decoded.slice(0, colon));
    rawSecret = decoded.slice(colon + 1);
    secret = formDecoded(rawSecret);
  }
  if (assertion !== undefined) {
    if (basic || secret !== undefined)
      throw new ClientError(
        'invalid_client',
        'the request authenticates the client twice (a client_assertion and a secret); use one method',
      );
    if (f.get('client_assertion_type') !== ASSERTION_TYPE)
      throw new ClientError(
        'invalid_client',
        `client_assertion_type must be ${ASSERTION_TYPE} (private_key_jwt)`,
      );
    let claimed: string | undefined;
    try {
      const payload = decodeJwt(assertion);
      claimed = typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      throw new ClientError('invalid_client', 'the client_assertion is not a JWT');
    }
    if (!claimed) throw new ClientError('invalid_client', 'the client_assertion names no sub');
    if (id !== undefined && id !== claimed)
      throw new ClientError(
        'invalid_client',
        `client_id ${id} differs from the client_assertion's sub ${claimed}`,
      );
    await ctx.limit('client', req.path, claimed.slice(0, 200));
    const client = await ctx.client(claimed, req.remoteAddress ?? 'unknown');
    if (client.authMethod !== 'private_key_jwt')
      throw new ClientError(
        'invalid_client',
        `client ${claimed} has no registered keys; it cannot authenticate with a client_assertion`,
      );
    await verifyAssertion(ctx, client, assertion);
    return client;
  }
  if (!id) throw new ClientError('invalid_client', 'the request names no client (client_id)');
  await ctx.limit('client', req.path, id.slice(0, 200));
  const client = await ctx.client(id, req.remoteAddress ?? 'unknown');
  if (client.authMethod === 'private_key_jwt')
    throw new ClientError(
      'invalid_client',
      `client ${id} authenticates with private_key_jwt: send a client_assertion signed with its key`,
    );
  if (client.secretHash) {
    const matches = async (candidate: string | undefined) =>
      candidate !== undefined && same(await sha256(candidate), client.secretHash as string);
    if (
      !secret ||
      !((await matches(secret)) || (rawSecret !== secret && (await matches(rawSecret))))
    )
      throw new ClientError('invalid_client', `client ${id} must authenticate with its secret`);
  } else if (secret !== undefined) {
    throw new ClientError(
      'invalid_client',
      `client ${id} is a public client; it has no secret to send`,
    );
  }
  return client;
}

/** `text` form-decoded (`%XX`, `+` as a space), or as it is when it does not decode. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

async function verifyAssertion(
  ctx: ServerContext,
  client: KnownClient,
  assertion: string,
): Promise<void> {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(assertion, keysOf(client), {
      issuer: client.clientId,
      subject: client.clientId,
      audience: [ctx.issuer, `${ctx.issuer}/`, ctx.urls.token],
      algorithms: ASSERTION_ALGORITHMS,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: 5,
    }));
  } catch (error) {
    throw new ClientError(
      'invalid_client',
      `the client_assertion of ${client.clientId} ${why(error, ctx)}`,
    );
  }
  const exp = payload.exp as number;
  if (exp - Date.now() / 1000 > MAX_ASSERTION_SECONDS)
    throw new ClientError(
      'invalid_client',
      `the client_assertion of ${client.clientId} is valid for more than ${MAX_ASSERTION_SECONDS} s; sign one that expires within minutes`,
    );
  if (!(await firstUse(ctx, 'client', client.clientId, String(payload.jti), exp)))
    throw new ClientError(
      'invalid_client',
      `the client_assertion of ${client.clientId} was already used (jti ${String(payload.jti)}); sign a new one per request`,
    );
}

/** Why jose refused an assertion, in words naming the fix. */
export function why(error: unknown, ctx: ServerContext): string {
  if (error instanceof errors.JWTExpired) return 'has expired; sign a fresh one';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud')
      return `is not addressed to this server (aud must be ${ctx.issuer} or ${ctx.urls.token})`;
    return `has a wrong or missing ${error.claim} claim (${error.reason})`;
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey
  )
    return 'is not signed by a key registered for the client';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return `uses an algorithm not accepted here (use one of ${ASSERTION_ALGORITHMS.join(', ')})`;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return `cannot be checked: the client's keys could not be fetched (${(error as Error).message})`;
  return `is invalid (${error instanceof Error ? error.message : String(error)})`;
}
