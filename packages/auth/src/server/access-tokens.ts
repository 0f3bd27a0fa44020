import {
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import { InvalidTokenError } from '../auth-info.js';
import type { TokenFamily } from './context.js';
import { randomToken } from './crypto.js';

/** The access tokens of one authorization server: ES256 JWTs (`typ: at+jwt`) bound to the resource. */
export interface AccessTokens {
  /** The public key set (`jwks_uri`), as JSON text. */
  readonly jwks: string;
  /** Signs an access token for a sign-in (`gid` names its token family). */
  sign(
    family: TokenFamily,
    familyId: string,
    scopes: readonly string[],
    idp: string,
  ): Promise<string>;
  /** Checks signature, issuer, audience and expiry; throws `InvalidTokenError` saying which failed. */
  verify(token: string): Promise<Record<string, unknown> & { gid: string }>;
}

const IDENTITY_CLAIMS = ['email', 'email_verified', 'name', 'preferred_username'];

/** Loads `signingKey` (or makes one for this process) and returns the signer and verifier. */
export async function accessTokens(options: {
  readonly issuer: string;
  readonly resource: string;
  readonly ttlSeconds: number;
  readonly signingKey?: JWK;
}): Promise<AccessTokens> {
  const jwk: JWK =
    options.signingKey ??
    (await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey));
  if (!jwk.d || jwk.kty !== 'EC' || jwk.crv !== 'P-256')
    throw new TypeError(
      'authorizationServer: signingKey must be a private EC P-256 JWK (ES256), with d',
    );
  const kid = jwk.kid ?? (await calculateJwkThumbprint(jwk));
  const privateKey = await importJWK({ ...jwk, alg: 'ES256' }, 'ES256');
  const { d: _d, ...publicJwk } = jwk;
  const publicKey = await importJWK({ ...publicJwk, alg: 'ES256' }, 'ES256');
  return {
    jwks: JSON.stringify({ keys: [{ ...publicJwk, kid, alg: 'ES256', use: 'sig' }] }),
    sign(family, familyId, scopes, idp) {
      const identity: Record<string, unknown> = {};
      for (const name of IDENTITY_CLAIMS)
        if (family.claims[name] !== undefined) identity[name] = family.claims[name];
      return new SignJWT({
        client_id: family.clientId,
        scope: scopes.join(' '),
        gid: familyId,
        idp,
        ...identity,
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid })
        .setIssuer(options.issuer)
        .setAudience(family.resource)
        .setSubject(family.subject)
        .setJti(randomToken())
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(privateKey);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: options.issuer,
          audience: options.resource,
          algorithms: ['ES256'],
          typ: 'at+jwt',
          clockTolerance: 5,
          requiredClaims: ['exp', 'gid'],
        });
        return payload as Record<string, unknown> & { gid: string };
      } catch (error) {
        if (error instanceof errors.JWTExpired)
          throw new InvalidTokenError('the access token has expired');
        if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud')
          throw new InvalidTokenError('the access token was not issued for this resource');
        throw new InvalidTokenError(
          'the access token was not issued by this server or is malformed',
        );
      }
    },
  };
}
