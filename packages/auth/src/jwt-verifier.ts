import { errors, jwtVerify } from 'jose';
import {
  authInfoOf,
  InvalidTokenError,
  VerifierUnavailableError,
  type TokenVerifier,
} from './auth-info.js';
import { remoteKeySet } from './remote-keys.js';

/** The asymmetric JWS algorithms accepted by default (never `none`, never HMAC: see below). */
export const DEFAULT_JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** The options of {@link jwtVerifier}: the issuer, its keys and this server's audience. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; `iss` must equal it. */
  readonly issuer: string;
  /** Where the issuer publishes its signing keys (its metadata's `jwks_uri`). */
  readonly jwksUri: string;
  /**
   * The audience tokens must carry: this server's canonical URL, the `resource` clients asked
   * for (RFC 8707). A token for another resource is refused.
   */
  readonly audience: string | readonly string[];
  /** Accepted signature algorithms (default {@link DEFAULT_JWT_ALGORITHMS}); `none` and `HS*` are refused. */
  readonly algorithms?: readonly string[];
  /** Tolerated clock difference for `exp` and `nbf`, in seconds (default 5). */
  readonly clockToleranceSec?: number;
  /**
   * Least time between two key-set fetches prompted by an unknown `kid` or expired keys, in ms
   * (default 30 s), whether the last fetch succeeded or failed: while the issuer's endpoint
   * fails, tokens are answered 503 without asking it again until the cooldown ends.
   */
  readonly jwksCooldownMs?: number;
  /** How long fetched keys are used before they are fetched again, in ms (default 10 minutes). */
  readonly jwksCacheMaxAgeMs?: number;
  /** Time allowed for one key-set fetch, in ms (default 5 s); then the request gets 503. */
  readonly jwksTimeoutMs?: number;
  /** Required `typ` header, e.g. `at+jwt` (RFC 9068); unchecked by default, as many issuers omit it. */
  readonly typ?: string;
}

/**
 * Verifies JWT access tokens against the issuer's published keys (with `jose`): signature with
 * an allowed asymmetric algorithm, `iss`, `aud` bound to this server, `exp` and `nbf` with a
 * small clock tolerance. Keys are cached; a token signed with an unknown `kid` prompts one
 * refetch (at most once per cooldown, failed fetches included), so the issuer can rotate keys
 * and a flood of forged tokens never becomes a flood of fetches. An unreachable key set
 * answers 503, not 401.
 *
 * @example
 * ```ts
 * import { jwtVerifier } from '@mcp-fw/auth';
 * const verify = jwtVerifier({
 *   issuer: 'https://auth.example.com',
 *   jwksUri: 'https://auth.example.com/jwks',
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)];
  for (const alg of algorithms) {
    // An HMAC key is a shared secret: a verifier holding only the issuer's public key would
    // accept tokens anyone forges with that public key as the secret.
    if (alg === 'none' || /^HS/i.test(alg)) {
      throw new TypeError(
        `jwtVerifier: algorithm ${alg} is not allowed; use the issuer's asymmetric algorithms (e.g. RS256, ES256)`,
      );
    }
  }
  if (!options.audience || (Array.isArray(options.audience) && options.audience.length === 0)) {
    throw new TypeError(
      "jwtVerifier: audience is required (this server's canonical URL), so tokens for other resources are refused",
    );
  }
  // "No such key" is the token's fault (401); "could not get the keys" is the key set's
  // VerifierUnavailableError (503).
  const keys = remoteKeySet({
    url: new URL(options.jwksUri).href,
    cooldownMs: options.jwksCooldownMs ?? 30_000,
    maxAgeMs: options.jwksCacheMaxAgeMs ?? 600_000,
    timeoutMs: options.jwksTimeoutMs ?? 5_000,
  });
  const audience = typeof options.audience === 'string' ? options.audience : [...options.audience];
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience,
        algorithms,
        clockTolerance: options.clockToleranceSec ?? 5,
        typ: options.typ,
        requiredClaims: ['exp'],
      });
      return authInfoOf(payload as Record<string, unknown>);
    } catch (error) {
      if (error instanceof VerifierUnavailableError) throw error;
      throw new InvalidTokenError(describe(error));
    }
  };
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'the access token is not valid yet';
    if (error.claim === 'aud') return 'the access token was not issued for this resource';
    if (error.claim === 'iss') return 'the access token was issued by an untrusted issuer';
    return `the access token's ${error.claim} claim is invalid`;
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'the access token is signed with a key the issuer does not publish';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'the access token is signed with an algorithm that is not accepted';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the access token signature is invalid';
  return 'the access token is malformed';
}
