import { OpenAPIError } from './errors.js';
import { readCapped } from './read-capped.js';
import { UpstreamError } from './upstream-error.js';

/**
 * Credentials sent to the upstream API with every request: a static bearer token, HTTP Basic,
 * an API key, a token obtained by the OAuth 2 client credentials grant (cached until it
 * expires), or — only where you allow it for this API — the MCP caller's own token.
 *
 * @example
 * ```ts
 * const auth: UpstreamAuth = {
 *   type: 'oauth2ClientCredentials',
 *   tokenUrl: 'https://auth.example.com/oauth/token',
 *   clientId: 'petstore-mcp',
 *   clientSecret: process.env.PETSTORE_CLIENT_SECRET ?? '',
 *   scopes: ['pets:read'],
 * };
 * ```
 */
export type UpstreamAuth =
  | {
      type: 'bearer';
      /** The token, or a function returning it (called per request, so it can rotate). */
      token: string | (() => string | Promise<string>);
    }
  | {
      type: 'basic';
      /** The user name of HTTP Basic authentication. */
      username: string;
      /** The password of HTTP Basic authentication. */
      password: string;
    }
  | {
      type: 'apiKey';
      /** Where the key goes. */
      in: 'header' | 'query' | 'cookie';
      /** The header, query parameter or cookie name. */
      name: string;
      /** The key. */
      value: string;
    }
  | {
      type: 'oauth2ClientCredentials';
      /** The authorization server's token endpoint (absolute http(s) URL). */
      tokenUrl: string;
      /** This server's client id at the authorization server. */
      clientId: string;
      /** Its client secret. */
      clientSecret: string;
      /** Scopes to ask for (`scope`), if any. */
      scopes?: readonly string[];
      /** The API's resource indicator (RFC 8707 `resource`), if the authorization server wants one. */
      resource?: string;
      /**
       * How the client authenticates at the token endpoint: HTTP Basic (default, RFC 6749's
       * recommendation) or `client_id`/`client_secret` in the form body.
       */
      authMethod?: 'client_secret_basic' | 'client_secret_post';
    }
  | {
      /**
       * Sends the MCP caller's own bearer token (`ctx.auth.token`, set by `oauthResource` of
       * `@mcp-fw/auth`) to this API. The MCP specification forbids this in general — the token
       * was issued for your server, not for the API — so use it only when the API is yours and
       * accepts tokens of that audience. A call without a caller token is refused, not sent
       * anonymously.
       */
      type: 'forwardCallerToken';
    };

/** Adds credentials to requests; one per `fromOpenAPI` server (it holds the cached token). */
export interface Credentials {
  /** Sets the credentials on one request. `caller` is the handler's `ctx.auth`. */
  apply(request: CredentialTarget, caller: unknown): Promise<void>;
  /**
   * The API answered 401: drops a cached token. True when a retry with a fresh one may succeed
   * (client credentials only; a static credential would be refused again).
   */
  rejected(): boolean;
}

/** The parts of a request credentials go into. */
export interface CredentialTarget {
  readonly headers: Record<string, string>;
  readonly cookies: string[];
  query(name: string, value: string): void;
}

const TOKEN_ANSWER_BYTES = 64 * 1024;
/** A token is renewed this long before its `expires_in` ends, so it never expires in flight. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Checks `auth` at startup (a bad token URL fails here, not on the first call) and returns what
 * applies it per request.
 */
export function credentialsOf(
  auth: UpstreamAuth | undefined,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Credentials | undefined {
  if (auth === undefined) return undefined;
  switch (auth.type) {
    case 'bearer':
      return fixed(async ({ headers }) => {
        const token = typeof auth.token === 'function' ? await auth.token() : auth.token;
        headers.authorization = `Bearer ${token}`;
      });
    case 'basic':
      return fixed(async ({ headers }) => {
        headers.authorization = `Basic ${btoa(`${auth.username}:${auth.password}`)}`;
      });
    case 'apiKey':
      return fixed(async (target) => {
        if (auth.in === 'header') target.headers[auth.name] = auth.value;
        else if (auth.in === 'query') target.query(auth.name, auth.value);
        else target.cookies.push(`${auth.name}=${encodeURIComponent(auth.value)}`);
      });
    case 'forwardCallerToken':
      return fixed(async ({ headers }, caller) => {
        const token = (caller as { token?: unknown } | undefined)?.token;
        if (typeof token !== 'string' || token === '') {
          throw new UpstreamError(
            "this API gets the caller's token (auth: { type: 'forwardCallerToken' }), but this call carries none. Fix: serve over HTTP with oauthResource from @mcp-fw/auth, so every call has a verified token.",
          );
        }
        headers.authorization = `Bearer ${token}`;
      });
    case 'oauth2ClientCredentials':
      return clientCredentials(auth, fetchImpl, timeoutMs);
    default:
      throw new OpenAPIError(
        'CONFLICTING_OPTIONS',
        '#',
        `auth.type ${JSON.stringify((auth as { type?: unknown }).type)} is not known. Fix: use 'bearer', 'basic', 'apiKey', 'oauth2ClientCredentials' or 'forwardCallerToken'.`,
      );
  }
}

function fixed(apply: (target: CredentialTarget, caller: unknown) => Promise<void>): Credentials {
  return { apply: (target, caller) => apply(target, caller), rejected: () => false };
}

function clientCredentials(
  auth: Extract<UpstreamAuth, { type: 'oauth2ClientCredentials' }>,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Credentials {
  let tokenUrl: URL;
  try {
    tokenUrl = new URL(auth.tokenUrl);
    if (tokenUrl.protocol !== 'http:' && tokenUrl.protocol !== 'https:') throw new Error();
  } catch {
    throw new OpenAPIError(
      'CONFLICTING_OPTIONS',
      '#',
      `auth.tokenUrl ${JSON.stringify(auth.tokenUrl)} is not an absolute http(s) URL. Fix: pass the authorization server's token endpoint, e.g. 'https://auth.example.com/oauth/token'.`,
    );
  }
  if (!auth.clientId) {
    throw new OpenAPIError(
      'CONFLICTING_OPTIONS',
      '#',
      'auth.clientId is empty. Fix: pass the client id registered at the authorization server.',
    );
  }
  let cached: { token: string; expiresAt: number } | undefined;
  // One token request at a time: calls arriving while it runs share its answer.
  let pending: Promise<string> | undefined;

  // The token request has its own deadline, not the first caller's signal: calls waiting on it
  // must not fail because that one call was cancelled.
  const request = async (): Promise<string> => {
    const signal = AbortSignal.timeout(timeoutMs);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scopes && auth.scopes.length > 0) form.set('scope', auth.scopes.join(' '));
    if (auth.resource) form.set('resource', auth.resource);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (auth.authMethod === 'client_secret_post') {
      form.set('client_id', auth.clientId);
      form.set('client_secret', auth.clientSecret);
    } else {
      // RFC 6749 §2.3.1: form-encode both before joining them.
      const id = encodeURIComponent(auth.clientId).replaceAll('%20', '+');
      const secret = encodeURIComponent(auth.clientSecret).replaceAll('%20', '+');
      headers.authorization = `Basic ${btoa(`${id}:${secret}`)}`;
    }
    const where = `the token endpoint ${tokenUrl.href}`;
    let response: Response;
    try {
      response = await fetchImpl(tokenUrl, {
        method: 'POST',
        headers,
        body: form.toString(),
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      throw new UpstreamError(
        signal.aborted
          ? `${where} did not answer within ${timeoutMs} ms. Fix: check auth.tokenUrl, or raise timeoutMs.`
          : `could not reach ${where}: ${(error as Error).message}. Fix: check auth.tokenUrl.`,
      );
    }
    const text = new TextDecoder().decode(await readCapped(response, TOKEN_ANSWER_BYTES));
    let answer: Record<string, unknown> = {};
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Reported below with the status.
    }
    if (response.status !== 200 || typeof answer.access_token !== 'string') {
      const reason =
        typeof answer.error === 'string'
          ? `${answer.error}${typeof answer.error_description === 'string' ? ` (${answer.error_description})` : ''}`
          : `HTTP ${response.status}: ${text.slice(0, 200)}`;
      throw new UpstreamError(
        `${where} refused the client credentials grant: ${reason}. Fix: check auth.clientId, auth.clientSecret and auth.scopes.`,
      );
    }
    const type = String(answer.token_type ?? 'bearer');
    if (type.toLowerCase() !== 'bearer') {
      throw new UpstreamError(
        `${where} issued a ${type} token; only Bearer tokens are sent. Fix: configure the client at the authorization server for Bearer tokens.`,
      );
    }
    // Without expires_in the token is kept until the API refuses it (401).
    const expiresAt =
      typeof answer.expires_in === 'number'
        ? Date.now() + Math.max(0, answer.expires_in * 1000 - EXPIRY_MARGIN_MS)
        : Number.POSITIVE_INFINITY;
    cached = { token: answer.access_token, expiresAt };
    return answer.access_token;
  };

  const token = async (): Promise<string> => {
    if (cached && Date.now() < cached.expiresAt) return cached.token;
    pending ??= request().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  return {
    async apply({ headers }) {
      headers.authorization = `Bearer ${await token()}`;
    },
    rejected() {
      const had = cached !== undefined;
      cached = undefined;
      return had;
    },
  };
}
