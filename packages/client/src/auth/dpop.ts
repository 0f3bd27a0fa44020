import { base64url } from './pkce.js';

/**
 * A DPoP key (RFC 9449): proves that whoever presents a token holds the key it is bound to, so
 * a stolen token is useless alone. One key per `OAuth` instance, in memory; a fresh signed proof
 * per HTTP request. jose is loaded only when a server offers DPoP.
 */
export class DpopKey {
  readonly #sign: (claims: Record<string, unknown>) => Promise<string>;
  /** The last nonce each origin asked for (RFC 9449 §8, §9). */
  readonly nonces = new Map<string, string>();

  private constructor(sign: (claims: Record<string, unknown>) => Promise<string>) {
    this.#sign = sign;
  }

  /** A new ES256 key pair. */
  static async create(): Promise<DpopKey> {
    const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(publicKey);
    const jwk = { kty, crv, x, y };
    return new DpopKey((claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk })
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .sign(privateKey),
    );
  }

  /** A proof for one request: `htm` and `htu` (no query or fragment), `ath` with a token. */
  async proof(method: string, url: URL, accessToken?: string): Promise<string> {
    const htu = `${url.origin}${url.pathname}`;
    const nonce = this.nonces.get(url.origin);
    const ath =
      accessToken === undefined
        ? undefined
        : base64url(
            new Uint8Array(
              await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken)),
            ),
          );
    return this.#sign({
      htm: method.toUpperCase(),
      htu,
      ...(nonce !== undefined && { nonce }),
      ...(ath !== undefined && { ath }),
    });
  }

  /** Keeps the nonce a response asks for; whether it asked for one. */
  takeNonce(url: URL, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (!nonce) return false;
    this.nonces.set(url.origin, nonce);
    return true;
  }
}
