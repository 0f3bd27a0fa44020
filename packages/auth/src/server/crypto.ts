// Web Crypto only: random identifiers, hashes under which secrets are stored, PKCE, and the
// AES-GCM sealing of upstream tokens at rest.

const UTF8 = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const raw = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** A random, unguessable token (256 bits). */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of `text`, base64url: what codes and tokens are stored under, never themselves. */
export async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', UTF8.encode(text))));
}

/** True when `verifier` is a valid RFC 7636 verifier whose S256 challenge is `challenge`. */
export async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return (await sha256(verifier)) === challenge;
}

/** Constant-time comparison of two strings of the same origin. */
export function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** AES-256-GCM keyed from a secret: seals the upstream tokens kept in the store. */
export class Sealer {
  readonly #key: ReturnType<typeof crypto.subtle.importKey>;

  constructor(secret: string) {
    this.#key = crypto.subtle
      .digest('SHA-256', UTF8.encode(`mcp-fw upstream tokens\0${secret}`))
      .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
  }

  async seal(text: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await this.#key, UTF8.encode(text)),
    );
    return `${base64url(iv)}.${base64url(data)}`;
  }

  async open(sealed: string): Promise<string> {
    const [iv, data] = sealed.split('.');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64url(iv) as Uint8Array<ArrayBuffer> },
      await this.#key,
      fromBase64url(data) as Uint8Array<ArrayBuffer>,
    );
    return new TextDecoder().decode(plain);
  }
}
