import type { HttpReply, HttpRequestView } from '@mcp-fw/core/http';
import { ClientError, matchRedirect, type KnownClient } from './clients.js';
import { cookieOf, type ServerContext } from './context.js';
import { randomToken, same, sha256 } from './crypto.js';
import { consentPage, errorPage } from './pages.js';
import { UpstreamError } from './upstream.js';

/** A sign-in under way: from `/authorize` through the upstream and consent to the code. */
interface Transaction {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state?: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  /** Hash of the cookie that binds the sign-in to the browser that started it. */
  readonly browser: string;
  readonly upstreamVerifier: string;
  readonly nonce: string;
  readonly phase: 'upstream' | 'consent';
  readonly csrf?: string;
  readonly subject?: string;
  readonly claims?: Record<string, unknown>;
  readonly upstream?: string;
}

const TRANSACTION_MS = 10 * 60_000;
const CODE_MS = 60_000;
const BROWSER_COOKIE = 'mcp-fw-signin';
const MAX_FORM = 16 * 1024;

/** The parameters of an authorization request: the query, or a form-encoded POST body. */
async function params(req: HttpRequestView): Promise<URLSearchParams | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return req.url.searchParams;
  const body = await req.text(MAX_FORM);
  return body === undefined ? undefined : new URLSearchParams(body);
}

/** Sends the browser back to the client with `fields`, the state and our `iss` (RFC 9207). */
function redirectBack(
  ctx: ServerContext,
  redirectUri: string,
  state: string | undefined,
  fields: Record<string, string>,
): HttpReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', ctx.issuer);
  return { status: 302, headers: { location: url.href, 'cache-control': 'no-store' } };
}

/** GET/POST `/authorize`: checks the client and request, then sends the person to the upstream. */
export async function authorize(ctx: ServerContext, req: HttpRequestView): Promise<HttpReply> {
  const p = await params(req);
  if (!p) return errorPage(413, 'invalid_request', 'the authorization request is too large');
  const clientId = p.get('client_id');
  if (!clientId) return errorPage(400, 'invalid_request', 'the request names no client_id');
  let client: KnownClient;
  try {
    client = await ctx.client(clientId, req.remoteAddress ?? 'unknown');
  } catch (error) {
    if (error instanceof ClientError) return errorPage(400, error.error, error.message);
    throw error;
  }
  if (client.grantTypes && !client.grantTypes.includes('authorization_code'))
    return errorPage(
      400,
      'unauthorized_client',
      `the client ${clientId} is a machine client; it may not ask a person to sign in`,
    );
  // Until the redirect URI is proven the client's, errors go to the person, never to it.
  const asked =
    p.get('redirect_uri') ??
    (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!asked)
    return errorPage(
      400,
      'invalid_request',
      `the client ${clientId} registered several redirect URIs; the request must name one (redirect_uri)`,
    );
  if (!matchRedirect(client, asked))
    return errorPage(
      400,
      'invalid_request',
      `the redirect_uri ${asked} is not one the client ${clientId} registered; nothing was sent there`,
    );
  const state = p.get('state') ?? undefined;
  const fail = (error: string, description: string) =>
    redirectBack(ctx, asked, state, { error, error_description: description });
  if (p.get('response_type') !== 'code')
    return fail(
      'unsupported_response_type',
      'only response_type=code is supported (authorization code with PKCE)',
    );
  const challenge = p.get('code_challenge');
  const method = p.get('code_challenge_method');
  if (!challenge || method !== 'S256')
    return fail(
      'invalid_request',
      challenge
        ? `PKCE method ${method ?? 'plain (none named)'} is not accepted; use code_challenge_method=S256`
        : 'PKCE is required: send code_challenge with code_challenge_method=S256',
    );
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters)',
    );
  const resources = p.getAll('resource');
  if (resources.length > 1 || (resources.length === 1 && !sameResource(resources[0], ctx.resource)))
    return fail(
      'invalid_target',
      `this server issues tokens only for the resource ${ctx.resource}`,
    );
  const requested = (p.get('scope') ?? '').split(' ').filter((s) => s);
  const unknown = requested.filter((s) => !ctx.scopes.includes(s));
  if (unknown.length)
    return fail(
      'invalid_scope',
      `unknown scope ${unknown.join(' ')}; this server grants ${ctx.scopes.join(' ')}`,
    );
  const scopes = requested.length ? [...new Set(requested)] : [...ctx.scopes];

  const id = randomToken();
  const browser = randomToken();
  const upstreamVerifier = randomToken();
  const nonce = randomToken();
  const transaction: Transaction = {
    clientId,
    redirectUri: asked,
    state,
    codeChallenge: challenge,
    scopes,
    resource: ctx.resource,
    browser: await sha256(browser),
    upstreamVerifier,
    nonce,
    phase: 'upstream',
  };
  await ctx.store.set(`txn:${id}`, JSON.stringify(transaction), TRANSACTION_MS);
  let location: string;
  try {
    location = await ctx.upstream.authorizationUrl({
      redirectUri: ctx.urls.callback,
      state: id,
      codeChallenge: await sha256(upstreamVerifier),
      nonce,
    });
  } catch (error) {
    await ctx.store.delete(`txn:${id}`);
    return fail(
      'temporarily_unavailable',
      `the sign-in provider cannot be reached now: ${(error as Error).message}`,
    );
  }
  return {
    status: 302,
    headers: {
      location,
      'cache-control': 'no-store',
      'set-cookie': `${BROWSER_COOKIE}=${browser}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=600${ctx.issuer.startsWith('https:') ? '; Secure' : ''}`,
    },
  };
}

function sameResource(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

async function transactionOf(
  ctx: ServerContext,
  id: string | null,
): Promise<Transaction | undefined> {
  if (!id || id.length > 100) return undefined;
  const text = await ctx.store.get(`txn:${id}`);
  return text ? (JSON.parse(text) as Transaction) : undefined;
}

/** GET `/callback`: the upstream sent the person back; their identity, then consent. */
export async function callback(ctx: ServerContext, req: HttpRequestView): Promise<HttpReply> {
  const q = req.url.searchParams;
  const id = q.get('state');
  const txn = await transactionOf(ctx, id);
  if (txn?.phase !== 'upstream')
    return errorPage(
      400,
      'invalid_request',
      'this sign-in is unknown or has expired; start again from the application',
    );
  const browser = cookieOf(req, BROWSER_COOKIE);
  if (!browser || !same(await sha256(browser), txn.browser))
    return errorPage(
      400,
      'invalid_request',
      'this sign-in was started in another browser; start again from the application',
    );
  await ctx.store.delete(`txn:${id}`);
  const back = (error: string, description: string) =>
    redirectBack(ctx, txn.redirectUri, txn.state, { error, error_description: description });
  const name = ctx.upstream.provider.name;
  if (q.get('error'))
    return back(
      'access_denied',
      `the sign-in at ${name} failed: ${q.get('error')}${q.get('error_description') ? ` (${q.get('error_description')})` : ''}`,
    );
  const { issuer: upstreamIssuer } = await ctx.upstream.endpoints();
  if (upstreamIssuer && q.has('iss') && q.get('iss') !== upstreamIssuer)
    return back(
      'access_denied',
      `the sign-in answer names issuer ${q.get('iss')}, not ${upstreamIssuer} (RFC 9207 mix-up defence)`,
    );
  const code = q.get('code');
  if (!code) return back('access_denied', `${name} sent no authorization code`);
  let signIn;
  try {
    signIn = await ctx.upstream.signIn(code, txn.upstreamVerifier, ctx.urls.callback, txn.nonce);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return back('access_denied', error.message);
  }
  const claims = { ...signIn.claims };
  if (typeof claims.email === 'string' && claims.email_verified !== true) {
    if (ctx.options.requireVerifiedEmail)
      return back(
        'access_denied',
        `${name} has not verified the email ${claims.email}; verify it there and sign in again`,
      );
    delete claims.email;
  }
  const upstream = await ctx.sealer.seal(JSON.stringify(signIn.tokens));
  const consentKey = `consent:${await sha256(`${signIn.subject}\0${txn.clientId}`)}`;
  const granted = await ctx.store.get(consentKey);
  if (granted && txn.scopes.every((s) => (JSON.parse(granted) as string[]).includes(s)))
    return issueCode(ctx, { ...txn, subject: signIn.subject, claims, upstream });

  const csrf = randomToken();
  const next: Transaction = {
    ...txn,
    phase: 'consent',
    csrf,
    subject: signIn.subject,
    claims,
    upstream,
  };
  await ctx.store.set(`txn:${id}`, JSON.stringify(next), TRANSACTION_MS);
  const client = await ctx.client(txn.clientId);
  const person =
    (typeof claims.email === 'string' && claims.email) ||
    (typeof claims.name === 'string' && claims.name) ||
    `${signIn.subject} at ${name}`;
  return consentPage(
    {
      action: ctx.urls.consent,
      transaction: id!,
      csrf,
      clientName: client.clientName ?? client.clientId,
      clientId: client.clientId,
      verifiedDomain: client.verifiedDomain,
      redirectUri: txn.redirectUri,
      scopes: txn.scopes,
      resource: txn.resource,
      person,
    },
    // The consent POST must come from this browser too.
    `${BROWSER_COOKIE}=${browser}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=600${ctx.issuer.startsWith('https:') ? '; Secure' : ''}`,
  );
}

/** POST `/consent`: Allow or Deny, accepted only with the page's CSRF token from the same browser. */
export async function consent(ctx: ServerContext, req: HttpRequestView): Promise<HttpReply> {
  if (req.method !== 'POST') return errorPage(405, 'invalid_request', 'the consent form is posted');
  const origin = req.header('origin');
  if (origin !== undefined && origin !== 'null' && origin !== new URL(ctx.issuer).origin)
    return errorPage(
      403,
      'access_denied',
      `the consent form was posted from ${origin}, not from this server's page`,
    );
  const body = await req.text(MAX_FORM);
  const form = new URLSearchParams(body ?? '');
  const id = form.get('transaction');
  const txn = await transactionOf(ctx, id);
  if (txn?.phase !== 'consent' || !txn.csrf)
    return errorPage(
      400,
      'invalid_request',
      'this sign-in is unknown or has expired; start again from the application',
    );
  const csrf = form.get('csrf');
  const browser = cookieOf(req, BROWSER_COOKIE);
  if (!csrf || !same(csrf, txn.csrf) || !browser || !same(await sha256(browser), txn.browser))
    return errorPage(
      403,
      'access_denied',
      "the consent was not submitted from this server's consent page in the browser that signed in (CSRF token or sign-in cookie missing or wrong); nothing was granted",
    );
  if ((await ctx.store.take(`txn:${id}`)) === undefined)
    return errorPage(400, 'invalid_request', 'this consent was already answered');
  if (form.get('decision') !== 'allow')
    return redirectBack(ctx, txn.redirectUri, txn.state, {
      error: 'access_denied',
      error_description: 'the person declined to allow access',
    });
  const consentKey = `consent:${await sha256(`${txn.subject}\0${txn.clientId}`)}`;
  await ctx.store.set(consentKey, JSON.stringify(txn.scopes), ctx.refreshTokenTtlMs);
  return issueCode(ctx, txn);
}

/** What a code stands for until it is exchanged. */
export interface CodeGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly subject: string;
  readonly claims: Record<string, unknown>;
  readonly upstream: string;
}

async function issueCode(ctx: ServerContext, txn: Transaction): Promise<HttpReply> {
  const code = randomToken();
  const grant: CodeGrant = {
    clientId: txn.clientId,
    redirectUri: txn.redirectUri,
    codeChallenge: txn.codeChallenge,
    scopes: txn.scopes,
    resource: txn.resource,
    subject: txn.subject!,
    claims: txn.claims!,
    upstream: txn.upstream!,
  };
  await ctx.store.set(`code:${await sha256(code)}`, JSON.stringify(grant), CODE_MS);
  return redirectBack(ctx, txn.redirectUri, txn.state, { code });
}
