import { randomBytes, createHash } from 'node:crypto';
import type { DoctorCheck, Json } from './doctor-http.js';
import { upstreamChecks } from './upstream-checks.js';

/** The redirect URI of the doctor's probe client: loopback, never listened on, never followed. */
const PROBE_REDIRECT = 'http://127.0.0.1/mcp-fw-auth-doctor/callback';
const PROBE_CLIENT = 'mcp-fw-auth-doctor';

/** What the doctor knows of one authorization server when it checks it. */
export interface AuthorizationServerUnderTest {
  readonly issuer: string;
  /** Its RFC 8414 metadata. */
  readonly metadata: Json;
  /** The MCP endpoint's canonical URL (the resource tokens are for). */
  readonly resource: string;
  /** The scopes the resource's protected-resource metadata names, if any. */
  readonly resourceScopes?: readonly string[];
  /**
   * A client registered there to start sign-ins with (`--client-id`, `--redirect-uri`), instead
   * of registering a probe client: for servers without dynamic registration.
   */
  readonly client?: ProbeClient;
}

/** A client the doctor starts sign-ins as: its id, and a redirect URI registered for it. */
export interface ProbeClient {
  readonly id: string;
  readonly redirectUri: string;
}

/**
 * Checks what an MCP client needs of an authorization server beyond its discovery: PKCE S256
 * only, Client ID Metadata Documents, `iss` in authorization responses (RFC 9207), the
 * resource's scopes granted, dynamic registration working or deliberately off, the token
 * endpoint's precise OAuth error for an invalid grant, PKCE enforced at the authorization
 * endpoint and, when the server signs people in at an upstream identity provider, that
 * provider (see {@link upstreamChecks}). It registers one public probe client when dynamic
 * registration is on (as any MCP client would) and starts, never finishes, one sign-in.
 *
 * On an authorization server mounted on the resource's own origin (`authorizationServer()`
 * of `@mcp-fw/auth/server`, whose defaults pass all of these) a hardening finding is a
 * failure; on an external one, whose operator may have reasons, it is a warning.
 */
export async function authorizationServerChecks(
  as: AuthorizationServerUnderTest,
  fetchFn: typeof fetch,
): Promise<DoctorCheck[]> {
  const { issuer, metadata } = as;
  const own = new URL(issuer).origin === new URL(as.resource).origin;
  const checks: DoctorCheck[] = [];
  const add = (name: string, ok: boolean, detail: string, fix: string, hardening = false) =>
    checks.push({
      name: `${name} (${issuer})`,
      ok,
      detail,
      fix: ok ? undefined : fix,
      warning: !ok && hardening && !own ? true : undefined,
    });

  const methods = stringsOf(metadata.code_challenge_methods_supported);
  if (methods.includes('S256'))
    add(
      'PKCE S256 only',
      !methods.includes('plain'),
      `code_challenge_methods_supported: ${methods.join(', ')}`,
      'Offer only S256: with "plain" listed, a client or attacker may downgrade PKCE to a challenge that is the verifier itself.',
      true,
    );
  const cimd = metadata.client_id_metadata_document_supported === true;
  add(
    'client ID metadata documents',
    cimd,
    `client_id_metadata_document_supported: ${String(metadata.client_id_metadata_document_supported ?? '(missing)')}`,
    'Accept Client ID Metadata Documents and say so (client_id_metadata_document_supported: true): 2026-07-28 clients identify themselves by such a URL instead of registering. authorizationServer() does unless clientMetadataDocuments is false.',
    true,
  );
  const issAdvertised = metadata.authorization_response_iss_parameter_supported === true;
  const resourceScopes = as.resourceScopes;
  const granted = Array.isArray(metadata.scopes_supported)
    ? stringsOf(metadata.scopes_supported)
    : undefined;
  if (resourceScopes?.length && granted) {
    const missing = resourceScopes.filter((s) => !granted.includes(s));
    add(
      'the scopes the resource names are granted',
      missing.length === 0,
      missing.length
        ? `the resource names ${missing.join(', ')}, which scopes_supported (${granted.join(', ')}) lacks`
        : `${resourceScopes.join(', ')}`,
      `A client asking for ${missing.join(', ')} gets invalid_scope: grant ${missing.length === 1 ? 'it' : 'them'} at the authorization server (authorizationServer's scopes), or drop ${missing.length === 1 ? 'it' : 'them'} from the resource's scopes_supported.`,
    );
  }

  // Registration: working when offered; when not, a deliberate choice only if clients have another way in.
  const registrationEndpoint = stringOf(metadata.registration_endpoint);
  let clientId: string | undefined = as.client?.id;
  const redirectUri = as.client?.redirectUri ?? PROBE_REDIRECT;
  if (registrationEndpoint && as.client) {
    add(
      'dynamic registration',
      true,
      `${registrationEndpoint} advertised (not tried: the sign-ins use the client ${as.client.id})`,
      '',
    );
  } else if (registrationEndpoint) {
    const registered = await register(registrationEndpoint, fetchFn);
    clientId = registered.clientId;
    add(
      'dynamic registration',
      clientId !== undefined,
      clientId
        ? `${registrationEndpoint} registered a public probe client (${clientId})`
        : `${registrationEndpoint}: ${registered.problem}`,
      `Make ${registrationEndpoint} register public clients (RFC 7591: a JSON body with redirect_uris and token_endpoint_auth_method "none", answered with 201 and a client_id), or stop advertising registration_endpoint.`,
    );
  } else {
    add(
      'dynamic registration',
      cimd,
      cimd
        ? 'off (no registration_endpoint): clients use metadata documents'
        : 'off, and no client ID metadata documents either: only pre-registered clients can sign in',
      'MCP clients cannot sign in unless they are pre-registered: accept Client ID Metadata Documents, or turn dynamic registration on.',
      true,
    );
  }

  const tokenEndpoint = stringOf(metadata.token_endpoint);
  if (tokenEndpoint)
    checks.push(
      await invalidGrantCheck(issuer, tokenEndpoint, clientId, redirectUri, !!as.client, fetchFn),
    );

  const authorizationEndpoint = stringOf(metadata.authorization_endpoint);
  if (!clientId || !authorizationEndpoint) {
    if (authorizationEndpoint)
      checks.push({
        name: `sign-in and upstream IdP (${issuer})`,
        ok: false,
        warning: true,
        detail:
          'not checked: no client to start a sign-in with (dynamic registration is off or failed)',
        fix: 'Pass a client registered there, public or not, and one of its redirect URIs: mcp-fw auth doctor <url> --client-id <id> --redirect-uri <uri> (nothing is sent to that URI).',
      });
    add(
      'iss in authorization responses',
      issAdvertised,
      `authorization_response_iss_parameter_supported: ${String(metadata.authorization_response_iss_parameter_supported ?? '(missing)')}`,
      'Send iss in every authorization response and advertise authorization_response_iss_parameter_supported (RFC 9207): it is how a client talking to several authorization servers tells whose answer it got (mix-up attacks). authorizationServer() does.',
      true,
    );
    return checks;
  }

  const request = (extra: Record<string, string>) =>
    authorize(authorizationEndpoint, clientId!, redirectUri, as.resource, extra, fetchFn);
  const plain = randomBytes(32).toString('base64url');
  const [withPlain, withoutPkce] = [
    await request({ code_challenge: plain, code_challenge_method: 'plain' }),
    await request({}),
  ];
  const accepted = [
    withPlain.kind === 'sign-in' ? 'PKCE plain' : undefined,
    withoutPkce.kind === 'sign-in' ? 'no PKCE at all' : undefined,
  ].filter((s) => s !== undefined);
  add(
    'PKCE enforced at the authorization endpoint',
    accepted.length === 0,
    accepted.length
      ? `a sign-in with ${accepted.join(' and with ')} went on to sign in`
      : `refused PKCE plain (${describe(withPlain)}) and a request without PKCE (${describe(withoutPkce)})`,
    'Refuse an authorization request without code_challenge_method=S256 (error=invalid_request back to the client): PKCE is what makes a stolen code useless.',
    true,
  );
  const sentIss = withPlain.kind === 'error' ? withPlain.iss : undefined;
  add(
    'iss in authorization responses',
    issAdvertised && (withPlain.kind !== 'error' || sentIss === issuer),
    !issAdvertised
      ? `authorization_response_iss_parameter_supported: ${String(metadata.authorization_response_iss_parameter_supported ?? '(missing)')}`
      : withPlain.kind !== 'error'
        ? 'advertised (no error redirect seen to check it on)'
        : sentIss === issuer
          ? `advertised, and the error redirect carries iss=${sentIss}`
          : `advertised, but the error redirect carries ${sentIss === undefined ? 'no iss' : `iss=${sentIss}`}`,
    `Send iss=${issuer} in every authorization response, errors included, and advertise authorization_response_iss_parameter_supported (RFC 9207): it is how a client talking to several authorization servers tells whose answer it got (mix-up attacks).`,
    true,
  );

  const verifier = randomBytes(32).toString('base64url');
  const valid = await request({
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const upstreamFailure =
    valid.kind === 'error' && /discovery|upstream|provider/i.test(valid.description);
  add(
    'a sign-in request is accepted',
    valid.kind === 'sign-in',
    valid.kind === 'sign-in'
      ? valid.upstream
        ? `it sends the person to sign in at ${valid.upstream.origin}`
        : 'it shows its own sign-in page'
      : describe(valid),
    upstreamFailure
      ? "The authorization server cannot start a sign-in at its upstream identity provider: check the upstream (its issuer, or the preset's domain, tenant or realm) and that this host reaches it; the message above names the URL that failed."
      : 'A well-formed request (public client, PKCE S256, the resource) must go on to a sign-in page; the error above says what the server refused.',
  );
  if (valid.kind === 'sign-in' && valid.upstream)
    checks.push(...(await upstreamChecks(valid.upstream, fetchFn)));
  return checks;
}

type Authorization =
  | { kind: 'error'; error: string; description: string; iss?: string }
  | { kind: 'sign-in'; upstream?: URL }
  | { kind: 'refused'; detail: string };

function describe(outcome: Authorization): string {
  if (outcome.kind === 'error')
    return `error=${outcome.error}${outcome.description ? `: ${outcome.description}` : ''}`;
  if (outcome.kind === 'refused') return outcome.detail;
  return 'went on to sign in';
}

/**
 * One authorization request of the probe client, redirects not followed: back to the client
 * with an error, on to a sign-in page (an upstream provider's when it is another origin and
 * names a callback on the server's), or refused on the spot.
 */
async function authorize(
  endpoint: string,
  clientId: string,
  redirectUri: string,
  resource: string,
  extra: Record<string, string>,
  fetchFn: typeof fetch,
): Promise<Authorization> {
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', randomBytes(8).toString('hex'));
  url.searchParams.set('resource', resource);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  let response: Response;
  try {
    response = await fetchFn(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
  } catch (error) {
    return { kind: 'refused', detail: `unreachable (${(error as Error).message})` };
  }
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    const next = new URL(location, url);
    // Back at the probe client: with an error, or with a code (an AS that signs no one in).
    const back = new URL(redirectUri);
    if (
      `${next.origin}${next.pathname}` === `${back.origin}${back.pathname}` &&
      next.searchParams.has('error')
    )
      return {
        kind: 'error',
        error: next.searchParams.get('error')!,
        description: next.searchParams.get('error_description') ?? '',
        iss: next.searchParams.get('iss') ?? undefined,
      };
    const callback = next.searchParams.get('redirect_uri');
    const upstream =
      next.origin !== url.origin && callback && new URL(callback, next).origin === url.origin;
    return { kind: 'sign-in', upstream: upstream ? next : undefined };
  }
  if (response.status === 200) return { kind: 'sign-in' };
  return { kind: 'refused', detail: `HTTP ${response.status}` };
}

/** Registers the public probe client; its id, or what went wrong. */
async function register(
  endpoint: string,
  fetchFn: typeof fetch,
): Promise<{ clientId?: string; problem?: string }> {
  try {
    const response = await fetchFn(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_name: 'mcp-fw auth doctor (a probe, safe to delete)',
        redirect_uris: [PROBE_REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      }),
      signal: AbortSignal.timeout(5_000),
    });
    const body = await response.text();
    const json = parse(body);
    if ((response.status === 201 || response.status === 200) && typeof json?.client_id === 'string')
      return { clientId: json.client_id };
    return {
      problem: `HTTP ${response.status}${typeof json?.error === 'string' ? `: ${json.error}${typeof json.error_description === 'string' ? ` (${json.error_description})` : ''}` : ''}`,
    };
  } catch (error) {
    return { problem: `unreachable (${(error as Error).message})` };
  }
}

/**
 * The token endpoint given a code nobody issued must answer RFC 6749 §5.2: HTTP 400 with a JSON
 * `{"error":"invalid_grant"}` (or 401 `invalid_client` when it does not know the client).
 * Clients act on that code: a 500, an HTML page or a 200 leaves them guessing.
 */
async function invalidGrantCheck(
  issuer: string,
  endpoint: string,
  clientId: string | undefined,
  redirectUri: string,
  given: boolean,
  fetchFn: typeof fetch,
): Promise<DoctorCheck> {
  const name = `the token endpoint refuses an invalid grant precisely (${issuer})`;
  const fix = `Answer a token request with an unknown code at ${endpoint} with HTTP 400, content-type application/json and {"error":"invalid_grant","error_description":"…"} (RFC 6749 §5.2).`;
  let response: Response;
  let body: string;
  try {
    response = await fetchFn(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'mcp-fw-auth-doctor-not-a-code',
        redirect_uri: redirectUri,
        code_verifier: randomBytes(32).toString('base64url'),
        client_id: clientId ?? PROBE_CLIENT,
      }).toString(),
      signal: AbortSignal.timeout(5_000),
    });
    body = await response.text();
  } catch (error) {
    return { name, ok: false, detail: `unreachable (${(error as Error).message})`, fix };
  }
  const json = parse(body);
  const error = typeof json?.error === 'string' ? json.error : undefined;
  const isJson = /^application\/json\b/i.test(response.headers.get('content-type') ?? '');
  // With the probe client registered the answer must be invalid_grant; without it (or with a
  // given client, perhaps confidential, whose secret the doctor lacks) invalid_client is precise too.
  const precise =
    (response.status === 400 && error === 'invalid_grant') ||
    ((clientId === undefined || given) && response.status === 401 && error === 'invalid_client');
  const ok = precise && isJson;
  const said = error
    ? `${error}${typeof json?.error_description === 'string' ? ` (${json.error_description})` : ''}`
    : body.length > 0
      ? `not an OAuth error (${isJson ? 'JSON without "error"' : (response.headers.get('content-type') ?? 'no content-type')})`
      : 'an empty body';
  return {
    name,
    ok,
    detail: `HTTP ${response.status}, ${said}${precise && !isJson ? ', not served as application/json' : ''}`,
    fix: ok ? undefined : fix,
  };
}

function parse(body: string): Json | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
