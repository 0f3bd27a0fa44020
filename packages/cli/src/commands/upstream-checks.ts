import { getJson, type DoctorCheck } from './doctor-http.js';
import { idpHint } from './idp-hints.js';

/** How identity providers' pages say that the client or its redirect URI is not registered. */
const REFUSED =
  /redirect_uri_mismatch|redirect_uri did not match|invalid parameter: redirect_uri|invalid redirect_uri|AADSTS50011|AADSTS700016|invalid_client|unauthorized_client|unknown client/i;

/**
 * Checks the upstream identity provider an authorization server sends people to (the OAuth
 * proxy of `authorizationServer({ upstream })`), from the sign-in URL it built: the provider's
 * OpenID discovery document is reachable (OIDC upstreams), and the provider accepts the
 * server's client id with its callback URL as redirect URI, as far as its answer to that very
 * URL tells (its login page, or its error). On failure the fix says where, at that provider,
 * the callback is registered. Never signs in.
 */
export async function upstreamChecks(signIn: URL, fetchFn: typeof fetch): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const hint = idpHint(signIn);
  const callback = signIn.searchParams.get('redirect_uri') ?? '(none)';
  const clientId = signIn.searchParams.get('client_id') ?? '(none)';
  const oidc =
    signIn.searchParams.has('nonce') ||
    (signIn.searchParams.get('scope') ?? '').split(' ').includes('openid');
  if (oidc) {
    const tried: string[] = [];
    let discovery: string | undefined;
    for (const candidate of discoveryCandidates(signIn)) {
      tried.push(candidate);
      const result = await getJson(candidate, fetchFn);
      const endpoint = result.json?.authorization_endpoint;
      if (typeof endpoint === 'string' && sameEndpoint(endpoint, signIn)) {
        discovery = candidate;
        break;
      }
    }
    checks.push({
      name: `upstream discovery reachable (${hint.idp})`,
      ok: discovery !== undefined,
      // The authorization server found it (it built the sign-in URL): from here it may be out of reach.
      warning: discovery === undefined,
      detail: discovery
        ? `${discovery} names ${signIn.origin}${signIn.pathname}`
        : `no OpenID discovery document naming ${signIn.origin}${signIn.pathname} at ${tried.join(', ')}`,
      fix: discovery
        ? undefined
        : "The authorization server reached its upstream's discovery, but this machine cannot: if sign-ins fail, check the upstream issuer (oidcUpstream's issuer, or the preset's domain, tenant or realm).",
    });
  } else {
    checks.push({
      name: `upstream discovery reachable (${hint.idp})`,
      ok: true,
      detail: `an OAuth-only upstream (no OpenID discovery; its user API names the person): signs in at ${signIn.origin}${signIn.pathname}`,
    });
  }

  const name = `upstream accepts the callback (${hint.idp})`;
  const fix = `At ${hint.idp}, register ${callback} as a redirect URI of the client ${clientId} (${hint.where}); the client id and secret the server is configured with must be that client's.`;
  let response: Response;
  let body: string;
  try {
    response = await fetchFn(signIn, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
      signal: AbortSignal.timeout(5_000),
    });
    body = await response.text();
  } catch (error) {
    checks.push({
      name,
      ok: false,
      detail: `${signIn.origin} is unreachable (${(error as Error).message})`,
      fix: `Make ${signIn.origin} reachable from where people sign in, or correct the upstream's endpoints.`,
    });
    return checks;
  }
  const location = response.headers.get('location');
  let refusal: string | undefined;
  if (response.status >= 300 && response.status < 400 && location) {
    const next = new URL(location, signIn);
    const error = next.searchParams.get('error');
    if (error)
      refusal = `it redirects with error=${error}${next.searchParams.get('error_description') ? ` (${next.searchParams.get('error_description')})` : ''}`;
  } else if (response.status >= 400 || REFUSED.test(body)) {
    refusal = `HTTP ${response.status}: ${textOf(body)}`;
  }
  checks.push({
    name,
    ok: refusal === undefined,
    detail: refusal
      ? `${hint.idp} refuses the sign-in for client ${clientId} with redirect URI ${callback}: ${refusal}`
      : `${hint.idp} accepts client ${clientId} with redirect URI ${callback} (HTTP ${response.status}, on to its login page)`,
    fix: refusal ? fix : undefined,
  });
  return checks;
}

/**
 * Where the upstream's discovery document may be: `<prefix>/.well-known/openid-configuration`
 * for each prefix of the authorization endpoint's path, longest first (Keycloak's realm, Okta's
 * authorization server, Google's and Auth0's origin), and Entra's `/<tenant>/v2.0`.
 */
function discoveryCandidates(signIn: URL): string[] {
  const segments = signIn.pathname.split('/').filter((s) => s);
  const bases: string[] = [];
  if (signIn.hostname === 'login.microsoftonline.com' && segments[0])
    bases.push(`/${segments[0]}/v2.0`);
  for (let i = segments.length - 1; i >= 0 && bases.length < 6; i--)
    bases.push(segments.slice(0, i).length ? `/${segments.slice(0, i).join('/')}` : '');
  return bases.map((base) => `${signIn.origin}${base}/.well-known/openid-configuration`);
}

function sameEndpoint(endpoint: string, signIn: URL): boolean {
  try {
    const url = new URL(endpoint);
    return url.origin === signIn.origin && url.pathname === signIn.pathname;
  } catch {
    return false;
  }
}

/** A page's text in a line: tags and runs of space removed, cut at 200 characters. */
function textOf(html: string): string {
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty)';
}
