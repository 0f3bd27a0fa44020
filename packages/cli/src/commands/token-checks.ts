import { found, getJson, initializeRequest, type DoctorCheck, type Json } from './doctor-http.js';

const PROBE_SUBJECT = 'mcp-fw-auth-doctor';

/**
 * The endpoints a resource server checks tokens with, as the issuer's metadata names them: its
 * signing keys (`jwks_uri`, for JWT access tokens) must be a key set with keys, and its
 * introspection endpoint (opaque tokens) must answer. A server whose verifier cannot reach
 * them answers 503 to every authenticated request.
 */
export async function verificationEndpointChecks(
  issuer: string,
  metadata: Json,
  fetchFn: typeof fetch,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const jwksUri = typeof metadata.jwks_uri === 'string' ? metadata.jwks_uri : undefined;
  const introspection =
    typeof metadata.introspection_endpoint === 'string'
      ? metadata.introspection_endpoint
      : undefined;
  let keys: unknown[] | undefined;
  if (jwksUri) {
    const result = await getJson(jwksUri, fetchFn);
    keys = Array.isArray(result.json?.keys) ? (result.json.keys as unknown[]) : undefined;
    const ok = keys !== undefined && keys.length > 0;
    checks.push({
      name: `signing keys (${issuer})`,
      ok,
      detail: ok
        ? `${jwksUri}: ${keys!.length} key${keys!.length === 1 ? '' : 's'}`
        : `${jwksUri}: ${result.json ? 'no "keys" in the key set' : found(result)}`,
      fix: ok
        ? undefined
        : `Make ${issuer} serve its signing keys at ${jwksUri} (its metadata's jwks_uri), or correct jwks_uri: a server verifying JWTs with these keys answers 503 to every request while they cannot be fetched.`,
    });
  }
  const privateParts = (keys ?? []).filter(
    (k) =>
      typeof k === 'object' &&
      k !== null &&
      ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((field) => field in k),
  ).length;
  if (keys?.length) {
    checks.push({
      name: `signing keys are public (${issuer})`,
      ok: privateParts === 0,
      detail:
        privateParts === 0
          ? 'no private or secret key material in the key set'
          : `${privateParts} key${privateParts === 1 ? '' : 's'} at ${jwksUri} carr${privateParts === 1 ? 'ies' : 'y'} private or secret parts (d, p, q… or k)`,
      fix:
        privateParts === 0
          ? undefined
          : `Anyone can read ${jwksUri}, so anyone can now sign tokens: publish only the public parts (kty, crv, x, y / n, e, kid, alg, use), and replace the leaked key at once.`,
    });
  }
  if (introspection) {
    const status = await introspectionStatus(introspection, fetchFn);
    // Without the resource server's credentials, 400 or 401 is the right answer: it is alive.
    const ok = status.code === 200 || status.code === 400 || status.code === 401;
    checks.push({
      name: `introspection endpoint (${issuer})`,
      ok,
      detail: ok
        ? `${introspection}: answers (HTTP ${status.code} without credentials)`
        : `${introspection}: ${status.code === 0 ? `unreachable (${status.error})` : `HTTP ${status.code}`}`,
      fix: ok
        ? undefined
        : `Make ${issuer} answer token introspection (RFC 7662) at ${introspection}, or correct introspection_endpoint: a server checking opaque tokens there answers 503 to every request while it fails.`,
    });
  }
  if (!jwksUri && !introspection) {
    checks.push({
      name: `how tokens are checked (${issuer})`,
      ok: false,
      warning: true,
      detail: 'the metadata names neither jwks_uri nor introspection_endpoint',
      fix: 'Publish jwks_uri (for JWT access tokens) or introspection_endpoint (for opaque ones), so a resource server, and this doctor, know where tokens are checked.',
    });
  }
  return checks;
}

async function introspectionStatus(
  endpoint: string,
  fetchFn: typeof fetch,
): Promise<{ code: number; error?: string }> {
  try {
    const response = await fetchFn(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token: PROBE_SUBJECT }).toString(),
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return { code: response.status };
  } catch (error) {
    return { code: 0, error: (error as Error).message };
  }
}

/**
 * Whether the server can check a token now, with the endpoints *it* is configured with (which
 * may differ from what the issuer publishes): it sends a JWT signed by no one, for this
 * resource. Checking it makes the server fetch its key set or call its introspection endpoint;
 * the right answer is 401, and a 503 means that fetch failed, so every real token fails too.
 * The token carries no credential and cannot pass a check.
 */
export async function tokenCheckProbe(
  target: string,
  issuer: string | undefined,
  fetchFn: typeof fetch,
): Promise<DoctorCheck> {
  const name = 'the server can check tokens (one signed by no one gets 401)';
  let response: Response;
  let body: string;
  try {
    response = await fetchFn(
      target,
      // Longer than a verifier's own fetch timeout (5 s by default), so its 503 arrives.
      initializeRequest({ authorization: `Bearer ${unsignedToken(target, issuer)}` }, 10_000),
    );
    body = await response.text();
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `unreachable (${(error as Error).message})`,
      fix: 'Start the server, or check the URL.',
    };
  }
  if (response.status === 401) return { name, ok: true, detail: 'HTTP 401' };
  const said = messageOf(body);
  if (response.status === 503) {
    return {
      name,
      ok: false,
      detail: `HTTP 503${said ? `: ${said}` : ''}`,
      fix: "The server cannot reach the endpoint its verifier checks tokens with, so every real request gets 503 too: correct its URL (jwtVerifier's jwksUri, introspectionVerifier's endpoint) to what the issuer's metadata names, and make sure the server's host can reach it. The server's log says which URL failed.",
    };
  }
  return {
    name,
    ok: false,
    detail: `HTTP ${response.status}${said ? `: ${said}` : ''}`,
    fix:
      response.status < 300
        ? 'The server accepted a token nobody signed: verify signatures (jwtVerifier or introspectionVerifier from @mcp-fw/auth) before serving anything.'
        : 'Refuse a token that fails verification with 401 and an invalid_token challenge.',
  };
}

/** A JWT for `target` with a key id no issuer has and no signature worth the name. */
function unsignedToken(target: string, issuer: string | undefined): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return [
    part({ alg: 'RS256', typ: 'JWT', kid: PROBE_SUBJECT }),
    part({ iss: issuer, aud: target, sub: PROBE_SUBJECT, iat: now, exp: now + 300 }),
    Buffer.alloc(256).toString('base64url'),
  ].join('.');
}

function messageOf(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
