import {
  createLocalJWKSet,
  errors,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWTHeaderParameters,
} from 'jose';
import { VerifierUnavailableError } from './auth-info.js';

/** How the issuer's key set is fetched and kept (the `jwks*` options of `jwtVerifier`). */
export interface RemoteKeySetOptions {
  readonly url: string;
  /** Least time between two fetches, successful or not, prompted by an unknown `kid`. */
  readonly cooldownMs: number;
  /** How long fetched keys are used before they are fetched again. */
  readonly maxAgeMs: number;
  /** Time allowed for one fetch. */
  readonly timeoutMs: number;
}

type KeyLookup = (
  header: JWTHeaderParameters,
  token: FlattenedJWSInput,
) => ReturnType<ReturnType<typeof createLocalJWKSet>>;

/**
 * The issuer's signing keys, fetched over HTTP and cached. Every fetch, whether it succeeds or
 * fails, starts the cooldown: an unknown `kid`, or keys that are missing or past their age,
 * prompt at most one fetch per cooldown, so a flood of tokens cannot turn into a flood of
 * fetches at an issuer that is already failing (within the cooldown after a failed fetch, the
 * same 503 is answered without asking again). Concurrent lookups share one fetch.
 */
export function remoteKeySet(options: RemoteKeySetOptions): KeyLookup {
  const { url, cooldownMs, maxAgeMs, timeoutMs } = options;
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let triedAt = Number.NEGATIVE_INFINITY;
  // The last fetch's failure, while no fetch has succeeded since.
  let failure: VerifierUnavailableError | undefined;
  let pending: Promise<void> | undefined;

  const fetchKeys = async (): Promise<void> => {
    triedAt = Date.now();
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json, application/jwk-set+json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      keys = createLocalJWKSet((await response.json()) as JSONWebKeySet);
      fetchedAt = Date.now();
      failure = undefined;
    } catch (error) {
      failure = new VerifierUnavailableError(
        `the issuer's signing keys at ${url} could not be fetched (${(error as Error).message})`,
        { cause: error },
      );
    }
  };
  /** Fetches once more unless a fetch is under way (then waits for it) or the cooldown runs. */
  const refresh = async (): Promise<void> => {
    if (!pending && Date.now() < triedAt + cooldownMs) return;
    pending ??= fetchKeys().finally(() => {
      pending = undefined;
    });
    await pending;
  };
  const usable = () => keys !== undefined && Date.now() < fetchedAt + maxAgeMs;

  return async (header, token) => {
    if (!usable()) {
      await refresh();
      if (!usable()) throw failure ?? unavailable(url);
    }
    try {
      return await keys!(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // An unknown kid: the issuer may have rotated its keys; look again (once per cooldown).
      const before = triedAt;
      await refresh();
      if (failure) throw failure;
      if (triedAt === before) throw error;
      return keys!(header, token);
    }
  };
}

function unavailable(url: string): VerifierUnavailableError {
  return new VerifierUnavailableError(
    `the issuer's signing keys at ${url} are out of date and could not be fetched again yet`,
  );
}
