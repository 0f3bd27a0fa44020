// stdio by default (the notes of $NOTES_USER); `--http --port N` serves http://127.0.0.1:N/mcp as
// an OAuth protected resource. Tokens come from `--issuer URL` (its JWKS at `--jwks-uri`, default
// `<issuer>/jwks`), from a local development authorization server with `--dev-auth`, or from
// our own authorization server on the same origin with `--auth-server`, where people sign in at
// a development upstream IdP (oidc-provider without registration, its own login page).
import { parseArgs } from 'node:util';
import { serveStdio } from '@mcp-fw/core/stdio';
import { PortInUseError, serveHttp } from '@mcp-fw/core/node';
import { declaredScopes, jwtVerifier, oauthResource } from '@mcp-fw/auth';
import { createNotesServer } from './server.js';

const USAGE =
  'usage: secure-notes [--http [--port N] (--auth-server | --dev-auth | --issuer URL [--jwks-uri URL])]';

function fail(message: string): never {
  process.stderr.write(`secure-notes: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      http: { type: 'boolean' },
      port: { type: 'string' },
      'dev-auth': { type: 'boolean' },
      'auth-server': { type: 'boolean' },
      issuer: { type: 'string' },
      'jwks-uri': { type: 'string' },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}

const server = createNotesServer();
if (!args.http) {
  await serveStdio(server);
} else {
  const port = Number(args.port ?? 3000);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    fail(`--port must be a port number (1-65535), got ${args.port}`);
  const modes = [args['dev-auth'], args['auth-server'], args.issuer].filter(Boolean).length;
  if (modes === 0)
    fail(
      'an HTTP server needs --auth-server (its own, with a development IdP), --dev-auth or --issuer URL (your authorization server)',
    );
  if (modes > 1) fail('choose one of --auth-server, --dev-auth and --issuer');
  // The canonical URL clients name and tokens must be issued for (RFC 8707).
  const resource = `http://127.0.0.1:${port}/mcp`;
  let closeAuth = async () => {};
  let protection: ReturnType<typeof oauthResource>;
  const resourceOptions = {
    // Computed from the scopes the members declare.
    scopesSupported: declaredScopes(server),
    challengeScopes: ['notes:read'],
    resourceName: 'Secure notes',
  };
  if (args['auth-server']) {
    const { devUpstreamProvider } = await import('@mcp-fw/auth/dev');
    const { authorizationServer, oidcUpstream } = await import('@mcp-fw/auth/server');
    const idp = await devUpstreamProvider({
      redirectUri: `http://127.0.0.1:${port}/oauth/callback`,
    });
    closeAuth = () => idp.close();
    const as = await authorizationServer({
      resource,
      scopes: declaredScopes(server),
      upstream: oidcUpstream({
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        name: 'dev-idp',
      }),
    });
    protection = as.protect(resourceOptions);
    process.stderr.write(
      `authorization server: ${as.issuer} (people sign in at the development IdP ${idp.issuer}: any login, any password)\n`,
    );
  } else {
    let issuer = args.issuer;
    let jwksUri = args['jwks-uri'];
    if (args['dev-auth']) {
      const { devAuthorizationServer } = await import('@mcp-fw/auth/dev');
      const dev = await devAuthorizationServer({ resource, scopes: declaredScopes(server) });
      ({ issuer, jwksUri } = dev);
      closeAuth = () => dev.close();
      process.stderr.write(
        `development authorization server (approves everyone as "dev"): ${dev.issuer}\n`,
      );
    }
    protection = oauthResource({
      resource,
      authorizationServers: [issuer!],
      ...resourceOptions,
      verifier: jwtVerifier({
        issuer: issuer!,
        jwksUri: jwksUri ?? `${issuer}/jwks`,
        audience: resource,
      }),
    });
  }
  const handle = await serveHttp(server, {
    port,
    ...protection,
  }).catch((error: unknown) => {
    // Said in words (the port, who holds it, what to do) rather than as a stack trace.
    if (error instanceof PortInUseError) fail(`${error.reason}\n${error.fix('--port <n>')}`);
    throw error;
  });
  process.stderr.write(
    `MCP server listening on ${handle.url} (protected; metadata at http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp)\n`,
  );
  const stop = () => void Promise.all([handle.close(), closeAuth()]).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
