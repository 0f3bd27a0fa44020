import { execFileSync } from 'node:child_process';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createServer, Scopes, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '@mcp-fw/core/node';
import { authInfo } from '@mcp-fw/auth';
import { devUpstreamProvider, type DevUpstreamProvider } from '@mcp-fw/auth/dev';
import {
  authorizationServer,
  oidcUpstream,
  type AuthorizationServer,
  type AuthorizationServerOptions,
  type UpstreamProvider,
} from '@mcp-fw/auth/server';
import { onFreePort } from '../../../../test-support/ports.ts';

export const SCOPES = ['notes:read', 'notes:write'];

@Scopes('notes:read')
class Notes {
  @Tool({ description: 'Who the caller is', input: z.object({}) })
  whoami(_: object, ctx: Context) {
    const auth = authInfo(ctx);
    return JSON.stringify({
      subject: auth.subject,
      clientId: auth.clientId,
      scopes: auth.scopes,
      claims: auth.claims,
      upstream: auth.upstream?.provider,
    });
  }

  @Tool({
    description: 'Calls the upstream userinfo endpoint as the caller',
    input: z.object({ url: z.string() }),
  })
  async upstream({ url }: { url: string }, ctx: Context) {
    const token = await authInfo(ctx).upstream!.accessToken();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return JSON.stringify(await response.json());
  }

  @Tool({ description: 'Writes', input: z.object({}), scopes: ['notes:write'] })
  write() {
    return 'written';
  }
}

/** The MCP server, our authorization server on its origin, and the upstream IdP (oidc-provider without registration). */
export interface OwnAuthorizationServer {
  readonly resource: string;
  readonly origin: string;
  readonly as: AuthorizationServer;
  readonly idp: DevUpstreamProvider;
  close(): Promise<void>;
}

export async function ownAuthorizationServer(
  extra: Partial<AuthorizationServerOptions> = {},
  idpOptions: {
    account?: (login: string) => Record<string, unknown>;
    accessTokenTtl?: number;
    /** The upstream as the authorization server sees it (default: OIDC discovery of the IdP). */
    upstream?: (idp: DevUpstreamProvider) => UpstreamProvider;
    /** More `serveHttp` options (e.g. `trustedProxies`). */
    serve?: Partial<ServeHttpOptions>;
  } = {},
): Promise<OwnAuthorizationServer> {
  // Its origin names its port (the resource, the IdP's redirect URI), so the port is chosen
  // before it listens; a port taken meanwhile is tried again with everything made anew.
  return onFreePort(async (port) => {
    const origin = `http://127.0.0.1:${port}`;
    const resource = `${origin}/mcp`;
    const idp = await devUpstreamProvider({
      redirectUri: `${origin}/oauth/callback`,
      account: idpOptions.account,
      accessTokenTtl: idpOptions.accessTokenTtl,
    });
    try {
      const as = await authorizationServer({
        resource,
        scopes: SCOPES,
        upstream:
          idpOptions.upstream?.(idp) ??
          oidcUpstream({
            issuer: idp.issuer,
            clientId: idp.clientId,
            clientSecret: idp.clientSecret,
            name: 'dev-idp',
          }),
        ...extra,
      });
      const server = createServer({ name: 'notes', version: '1.0.0', providers: [Notes] });
      const handle: HttpServerHandle = await serveHttp(server, {
        port,
        ...idpOptions.serve,
        ...as.protect({ scopesSupported: SCOPES, challengeScopes: ['notes:read'] }),
      });
      return {
        resource,
        origin,
        as,
        idp,
        close: async () => {
          await handle.close();
          await idp.close();
        },
      };
    } catch (error) {
      await idp.close();
      throw error;
    }
  });
}

/** A cookie jar shared by every host (the test's hosts all differ by port only, and cookie names differ). */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** Set to make `go` stop at our consent page instead of answering it. */
  consent: 'allow' | 'deny' | 'stop' = 'allow';
  login = 'alice';
  /** Cancel at the upstream's login page (its "abort" link) instead of signing in. */
  abortUpstream = false;
  /** The last consent page seen. */
  consentPage?: { url: string; html: string; fields: Record<string, string>; headers: Headers };

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return response;
  }

  /**
   * Follows an authorization URL through the upstream's login and consent forms and our consent
   * page, until the browser is sent to `redirectUri`: returns the parameters it arrives with.
   * Throws with the page when the flow stops anywhere else.
   */
  async go(authorizationUrl: string | URL, redirectUri: string): Promise<URLSearchParams> {
    let url = String(authorizationUrl);
    let init: RequestInit = {};
    for (let hop = 0; hop < 30; hop++) {
      if (url.startsWith(redirectUri)) return new URL(url).searchParams;
      const response = await this.fetch(url, init);
      init = {};
      const location = response.headers.get('location');
      if (location) {
        await response.arrayBuffer();
        url = new URL(location, url).href;
        continue;
      }
      const html = await response.text();
      const form = parseForm(html, url);
      if (response.status === 200 && form) {
        if (form.fields.prompt === 'login' && this.abortUpstream) {
          url = `${url.replace(/\/$/, '')}/abort`;
          continue;
        }
        if (form.fields.prompt === 'login') {
          form.fields.login = this.login;
          form.fields.password = 'any';
        }
        if (form.fields.csrf !== undefined) {
          this.consentPage = { url, html, fields: { ...form.fields }, headers: response.headers };
          if (this.consent === 'stop') throw new StoppedAtConsent(html);
          form.fields.decision = this.consent;
        }
        url = form.action;
        init = {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: new URL(form.action).origin,
          },
          body: new URLSearchParams(form.fields).toString(),
        };
        continue;
      }
      throw new FlowStopped(response.status, url, html);
    }
    throw new Error('too many steps in the sign-in');
  }
}

export class StoppedAtConsent extends Error {
  constructor(readonly html: string) {
    super('stopped at the consent page');
  }
}

export class FlowStopped extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly html: string,
  ) {
    super(
      `the sign-in stopped at ${url} with ${status}: ${html
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 400)}`,
    );
  }
}

/** The first form of a page: its absolute action and its inputs' values (the first button's too). */
function parseForm(
  html: string,
  base: string,
): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input([^>]*)>/gi)) {
    const name = /name="([^"]*)"/.exec(input[1])?.[1];
    if (name) fields[name] = unescapeHtml(/value="([^"]*)"/.exec(input[1])?.[1] ?? '');
  }
  return { action: new URL(unescapeHtml(form[1]), base).href, fields };
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** A PKCE pair (S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client dynamically. */
export async function registerClient(
  origin: string,
  redirectUri: string,
  name = 'attack-test',
): Promise<string> {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      client_name: name,
      token_endpoint_auth_method: 'none',
    }),
  });
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** An authorization URL with the usual parameters; `overrides` replace or (undefined) drop them. */
export function authorizationUrl(
  origin: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(`${origin}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    code_challenge_method: 'S256',
    state: 'st-1',
    ...params,
  }))
    if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** POSTs a form to the token endpoint. */
export async function tokenRequest(
  origin: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The whole flow by hand: register, sign in, exchange the code; returns the tokens. */
export async function signInByHand(
  origin: string,
  resource: string,
  options: { redirectUri?: string; scope?: string; browser?: Browser; clientId?: string } = {},
) {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
  const clientId = options.clientId ?? (await registerClient(origin, redirectUri));
  const { verifier, challenge } = pkce();
  const browser = options.browser ?? new Browser();
  const params = await browser.go(
    authorizationUrl(origin, {
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      resource,
      scope: options.scope ?? 'notes:read notes:write',
    }),
    redirectUri,
  );
  const code = params.get('code');
  if (!code) throw new Error(`no code: ${params}`);
  const tokens = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
    resource,
  });
  return { clientId, code, verifier, redirectUri, params, tokens, browser };
}

/** A 2026-07-28 tools/call with a bearer token. */
export async function callTool(
  resource: string,
  token: string,
  name: string,
  args: object = {},
): Promise<Response> {
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        },
      },
    }),
  });
}

/** A self-signed certificate for 127.0.0.1 (openssl), for an https Client ID Metadata Document host. */
export function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An https host on 127.0.0.1 serving what `handler` answers per path. */
export async function httpsHost(
  tls: { key: string; cert: string },
  handler: (path: string, res: import('node:http').ServerResponse) => void,
): Promise<{ origin: string; server: HttpsServer; close(): Promise<void> }> {
  const server = createHttpsServer(tls, (req, res) => handler(req.url ?? '/', res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
