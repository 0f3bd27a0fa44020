import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { takeStdout } from '../output/stdout.js';
import { styleFor } from '../output/style.js';
import { found, getJson, initializeRequest, type DoctorCheck, type Json } from './doctor-http.js';
import { authorizationServerChecks, type ProbeClient } from './as-checks.js';
import { examples } from './options.js';
import { tokenCheckProbe, verificationEndpointChecks } from './token-checks.js';
import { tokenKeyChecks } from './token-key-check.js';

export type { DoctorCheck };

const PRM = '/.well-known/oauth-protected-resource';
const PAGE_ORIGIN = 'https://client.example';

/** The URLs where RFC 8414 / OpenID Connect clients look for an issuer's metadata, in MCP's order. */
function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  if (!path)
    return [
      `${url.origin}/.well-known/oauth-authorization-server`,
      `${url.origin}/.well-known/openid-configuration`,
    ];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** What `mcp-fw auth doctor` checks beyond what it discovers. */
export interface AuthDoctorOptions {
  /**
   * An access token (JWT) the user got from the server's authorization server: checked against
   * the published keys, issuer and audience, here only; never sent anywhere.
   */
  readonly token?: string;
  /**
   * A client registered at the authorization server to start the probe sign-ins with, instead
   * of registering one: for a server without dynamic registration.
   */
  readonly client?: ProbeClient;
}

/**
 * Checks a running MCP server's OAuth setup the way a client discovers it: protected resource
 * metadata (RFC 9728) at both well-known URLs, its `resource` matching the URL, the
 * authorization server's metadata with PKCE S256 and the endpoints a client needs, the signing
 * keys and introspection endpoint it publishes (fetched), the 401 challenge, that the server can
 * check a token now (a JWT signed by no one must get 401, not 503), and CORS for browser
 * clients. Of each authorization server it also checks what a client needs beyond discovery
 * (PKCE S256 only, client ID metadata documents, registration, `iss` in responses, the token
 * endpoint's errors, and the upstream identity provider it signs people in at: see
 * `authorizationServerChecks`); with `options.token`, that the published keys verify a real
 * token. Never sends credentials.
 *
 * Side effects on the authorization server are those of a client starting to sign in: when
 * dynamic registration is offered it registers one public client named "mcp-fw auth doctor",
 * and it starts sign-ins it never finishes.
 *
 * @example
 * ```ts
 * const checks = await authDoctor('http://127.0.0.1:3000/mcp');
 * for (const failed of checks.filter((c) => !c.ok)) console.error(failed.name, failed.fix);
 * ```
 */
export async function authDoctor(
  target: string,
  fetchFn: typeof fetch = fetch,
  options: AuthDoctorOptions = {},
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const add = (name: string, ok: boolean, detail: string, fix?: string) =>
    checks.push({ name, ok, detail, fix: ok ? undefined : fix });
  const url = new URL(target);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const pathAware = `${url.origin}${PRM}${path}`;
  const root = `${url.origin}${PRM}`;

  const metaPath = await getJson(pathAware, fetchFn, { origin: PAGE_ORIGIN });
  add(
    'metadata at the path-aware URL',
    !!metaPath.json,
    metaPath.json ? pathAware : `${pathAware}: ${found(metaPath)}`,
    `Serve RFC 9728 metadata at ${pathAware} (oauthResource({ resource: '${target}', ... }) from @mcp-fw/auth does).`,
  );
  const metaRoot = await getJson(root, fetchFn);
  add(
    'metadata at the root URL',
    !!metaRoot.json,
    metaRoot.json ? root : `${root}: ${found(metaRoot)}`,
    `Serve the same metadata at ${root}: clients that ignore the path look there.`,
  );
  const metadata = metaPath.json ?? metaRoot.json;
  if (!metadata) return checks;

  const cors = metaPath.response?.headers.get('access-control-allow-origin');
  add(
    'metadata readable by browser clients (CORS)',
    cors === '*' || cors === PAGE_ORIGIN,
    cors
      ? `Access-Control-Allow-Origin: ${cors}`
      : 'no Access-Control-Allow-Origin on the metadata',
    'Answer metadata requests with Access-Control-Allow-Origin: * (the document is public).',
  );
  const resource = typeof metadata.resource === 'string' ? metadata.resource : undefined;
  const same = resource !== undefined && resource.replace(/\/$/, '') === `${url.origin}${path}`;
  add(
    'resource matches the URL',
    same,
    resource === undefined ? 'the metadata has no "resource"' : `resource is ${resource}`,
    `Set resource to the URL clients use, ${url.origin}${path}: clients refuse metadata for another resource, and tokens are issued for it (RFC 8707).`,
  );
  const servers = Array.isArray(metadata.authorization_servers)
    ? metadata.authorization_servers.filter((s): s is string => typeof s === 'string')
    : [];
  add(
    'authorization servers listed',
    servers.length > 0,
    servers.length > 0 ? servers.join(', ') : 'authorization_servers is missing or empty',
    "List your authorization server's issuer URL in authorization_servers.",
  );
  const bearer = metadata.bearer_methods_supported;
  if (Array.isArray(bearer)) {
    add(
      'tokens only in the Authorization header',
      bearer.every((m) => m === 'header'),
      `bearer_methods_supported: ${bearer.join(', ')}`,
      'MCP forbids tokens in the query string or body: advertise only "header".',
    );
  }

  const issuers = new Map<string, Json>();
  for (const issuer of servers) {
    let asMetadata: Json | undefined;
    let tried: string[] = [];
    for (const candidate of authorizationServerMetadataUrls(issuer)) {
      const result = await getJson(candidate, fetchFn);
      tried.push(`${candidate}: ${result.json ? 'found' : found(result)}`);
      if (result.json) {
        asMetadata = result.json;
        tried = [candidate];
        break;
      }
    }
    // A common slip for an issuer with a path: the well-known segment appended, not inserted.
    const appended = `${issuer.replace(/\/$/, '')}/.well-known/oauth-authorization-server`;
    const misplaced =
      !asMetadata &&
      !authorizationServerMetadataUrls(issuer).includes(appended) &&
      !!(await getJson(appended, fetchFn)).json;
    add(
      `authorization server metadata (${issuer})`,
      !!asMetadata,
      misplaced ? `${tried.join('; ')}; but found at ${appended}` : tried.join('; '),
      misplaced
        ? `Serve the metadata at ${authorizationServerMetadataUrls(issuer)[0]}: for an issuer with a path, RFC 8414 §3.1 inserts /.well-known/oauth-authorization-server between the host and the path, and MCP clients look only there (and at the OpenID Connect locations), never at ${appended}.`
        : `Make ${issuer} serve RFC 8414 (/.well-known/oauth-authorization-server) or OpenID Connect discovery metadata.`,
    );
    if (!asMetadata) continue;
    add(
      `issuer matches (${issuer})`,
      asMetadata.issuer === issuer,
      `issuer is ${String(asMetadata.issuer)}`,
      `The metadata's issuer must equal ${issuer} exactly (RFC 8414 §3.3); fix authorization_servers or the server's issuer.`,
    );
    const methods = Array.isArray(asMetadata.code_challenge_methods_supported)
      ? asMetadata.code_challenge_methods_supported
      : [];
    add(
      `PKCE S256 (${issuer})`,
      methods.includes('S256'),
      methods.length
        ? `code_challenge_methods_supported: ${methods.join(', ')}`
        : 'code_challenge_methods_supported is missing',
      'MCP clients refuse to proceed without PKCE S256: enable it and list it in code_challenge_methods_supported.',
    );
    const missing = ['authorization_endpoint', 'token_endpoint'].filter(
      (k) => typeof asMetadata![k] !== 'string',
    );
    add(
      `authorization and token endpoints (${issuer})`,
      missing.length === 0,
      missing.length
        ? `missing: ${missing.join(', ')}`
        : `${asMetadata.authorization_endpoint}, ${asMetadata.token_endpoint}`,
      'Publish authorization_endpoint and token_endpoint in the authorization server metadata.',
    );
    if (asMetadata.issuer === issuer) issuers.set(issuer, asMetadata);
    checks.push(...(await verificationEndpointChecks(issuer, asMetadata, fetchFn)));
    checks.push(
      ...(await authorizationServerChecks(
        {
          issuer,
          metadata: asMetadata,
          resource: `${url.origin}${path}`,
          client: options.client,
          resourceScopes: Array.isArray(metadata.scopes_supported)
            ? metadata.scopes_supported.filter((s): s is string => typeof s === 'string')
            : undefined,
        },
        fetchFn,
      )),
    );
  }

  if (options.token !== undefined)
    checks.push(...(await tokenKeyChecks(options.token, `${url.origin}${path}`, issuers, fetchFn)));

  let challenge: Response | undefined;
  let challengeError: string | undefined;
  try {
    challenge = await fetchFn(target, initializeRequest({}, 5_000));
    await challenge.arrayBuffer();
  } catch (error) {
    challengeError = (error as Error).message;
  }
  const header = challenge?.headers.get('www-authenticate') ?? '';
  const pointer = /resource_metadata="([^"]+)"/.exec(header)?.[1];
  add(
    'a request without a token gets 401',
    challenge?.status === 401,
    challenge ? `HTTP ${challenge.status}` : `unreachable (${challengeError})`,
    'Refuse requests without a valid bearer token with 401 (an MCP endpoint that answers them serves anyone).',
  );
  add(
    '401 carries a Bearer challenge pointing to the metadata',
    /^Bearer\b/i.test(header) &&
      pointer !== undefined &&
      (pointer === pathAware || pointer === root),
    header ? `WWW-Authenticate: ${header}` : 'no WWW-Authenticate header',
    `Answer 401 with WWW-Authenticate: Bearer resource_metadata="${pathAware}" so clients can discover the authorization server.`,
  );
  // Only a server that refuses missing tokens gets a forged one: elsewhere it proves nothing.
  if (challenge?.status === 401) checks.push(await tokenCheckProbe(target, servers[0], fetchFn));
  let preflight: Response | undefined;
  try {
    preflight = await fetchFn(target, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
      signal: AbortSignal.timeout(5_000),
    });
    await preflight.arrayBuffer();
  } catch {
    // reported below as no CORS
  }
  const allowed = (preflight?.headers.get('access-control-allow-headers') ?? '').toLowerCase();
  const endpointCors =
    !!preflight?.headers.get('access-control-allow-origin') && allowed.includes('authorization');
  checks.push({
    name: 'browser clients may call the endpoint (CORS)',
    ok: endpointCors,
    warning: !endpointCors,
    detail: endpointCors
      ? `a page on ${PAGE_ORIGIN} may send Authorization`
      : `a page on ${PAGE_ORIGIN} gets no CORS answer (only non-browser clients can connect)`,
    fix: endpointCors
      ? undefined
      : "If browser-based clients should connect, allow their origins: serveHttp(server, { cors: { origins: ['https://app.example'] }, allowedOrigins: ['https://app.example'] }).",
  });
  return checks;
}

/** `mcp-fw auth doctor <url>`: checks a running server's OAuth setup as a client would. */
export function authCommand(program: Command): void {
  const auth = program.command('auth').description('OAuth tools for protected MCP servers');
  auth
    .command('doctor')
    .description(
      "Check a running server's OAuth setup the way a client discovers it, with the fix for each failure",
    )
    .argument('<url>', 'the MCP endpoint, e.g. http://127.0.0.1:3000/mcp')
    .option(
      '--client-id <id>',
      'a client registered at the authorization server to start the probe sign-ins with (default: register one, when dynamic registration is on)',
    )
    .option(
      '--redirect-uri <uri>',
      'a redirect URI registered for --client-id (nothing is ever sent there)',
    )
    .option(
      '--token <jwt>',
      'an access token from the server\'s authorization server, checked here against its published keys, issuer and audience (never sent); "-" reads it from stdin',
    )
    .addHelpText(
      'after',
      examples([
        [
          'mcp-fw auth doctor http://127.0.0.1:3000/mcp',
          'metadata, authorization server (and its upstream IdP), its keys, 401 challenge, token checks, CORS',
        ],
        [
          'pbpaste | mcp-fw auth doctor https://mcp.example.com/mcp --token -',
          'also: the published key set verifies this token, which is for this resource',
        ],
      ]),
    )
    .action(
      async (
        target: string,
        flags: { token?: string; clientId?: string; redirectUri?: string },
      ) => {
        try {
          const parsed = new URL(target);
          if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
            throw new Error('not http(s)');
        } catch {
          throw new CliError(
            `${target} is not an http(s) URL.`,
            'Pass the MCP endpoint, e.g. mcp-fw auth doctor http://127.0.0.1:3000/mcp',
          );
        }
        const write = takeStdout();
        const style = styleFor(process.stdout);
        let token = flags.token;
        if (token === '-') {
          const chunks: Buffer[] = [];
          for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
          token = Buffer.concat(chunks).toString('utf8').trim();
        }
        if ((flags.clientId === undefined) !== (flags.redirectUri === undefined))
          throw new CliError(
            `--client-id and --redirect-uri go together: ${flags.clientId === undefined ? '--redirect-uri' : '--client-id'} was given alone.`,
            'Pass the id of a client registered at the authorization server and one of its registered redirect URIs.',
          );
        const client =
          flags.clientId !== undefined
            ? { id: flags.clientId, redirectUri: flags.redirectUri! }
            : undefined;
        const checks = await authDoctor(target, fetch, { token, client });
        for (const check of checks) {
          write(
            `${check.ok ? style.green('✓') : check.warning ? style.yellow('!') : style.red('✗')} ${check.name}: ${check.detail}\n`,
          );
          if (check.fix) write(`  ${style.yellow('fix:')} ${check.fix}\n`);
        }
        const failed = checks.filter((c) => !c.ok && !c.warning).length;
        write(
          failed === 0
            ? `${style.green('All checks passed.')}\n`
            : `${style.red(`${failed} check${failed === 1 ? '' : 's'} failed.`)}\n`,
        );
        process.exitCode = failed === 0 ? 0 : 1;
      },
    );
}
