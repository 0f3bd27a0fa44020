// Streamable HTTP at http://127.0.0.1:3000/mcp (PORT=N picks another port), and this server's
// own OAuth 2.1 authorization server on the same origin (/oauth/*): MCP clients sign in there,
// and it sends people on to the identity provider of src/idp.ts, whose settings come from the
// environment (.env.example). `--dev-idp` (npm run dev) signs people in at a development
// identity provider on 127.0.0.1 instead (any login, any password): for trying it only.
// The security defaults stay on: the server listens on 127.0.0.1 only (put it behind a TLS
// proxy to serve other machines) and refuses foreign Host and Origin headers.
import { PortInUseError, serveHttp } from '@mcp-fw/core/node';
import type { UpstreamProvider } from '@mcp-fw/auth/server';
import {
  allowedHosts,
  listenSettings,
  ownAuthorizationServer,
  protection,
  SettingsError,
  type ListenSettings,
} from './auth.js';
import { IDP, upstream } from './idp.js';
import { server } from './server.js';

const dev = process.argv.includes('--dev-idp');

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let listen: ListenSettings;
let idp: UpstreamProvider;
let closeIdp = async () => {};
try {
  listen = listenSettings(process.env, dev);
  if (dev) {
    const started = await startDevIdp(`${new URL(listen.resource).origin}/oauth/callback`);
    idp = started.upstream;
    closeIdp = started.close;
  } else {
    idp = upstream(process.env);
  }
} catch (error) {
  if (error instanceof SettingsError) fail(error.message);
  throw error;
}

const as = await ownAuthorizationServer(server, listen, idp, process.env).catch((error: Error) =>
  fail(error.message),
);
const handle = await serveHttp(server, {
  port: listen.port,
  allowedHosts: allowedHosts(listen),
  ...protection(server, as),
}).catch((error: unknown) => {
  // Said in words (the port, who holds it, what to do) rather than as a stack trace.
  if (error instanceof PortInUseError) fail(`${error.reason}\n${error.fix('PORT=<n>')}`);
  throw error;
});
process.stderr.write(
  `MCP server listening on ${handle.url} (its authorization server: ${as.issuer}; people sign in at ${dev ? 'the development identity provider (any login, any password)' : IDP})\n`,
);
const stop = () => void Promise.all([handle.close(), closeIdp()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

/** The development identity provider (oidc-provider, a devDependency) standing in for the real one. */
async function startDevIdp(redirectUri: string) {
  try {
    const { devUpstreamProvider } = await import('@mcp-fw/auth/dev');
    const { oidcUpstream } = await import('@mcp-fw/auth/server');
    const dev = await devUpstreamProvider({ redirectUri });
    return {
      upstream: oidcUpstream({
        issuer: dev.issuer,
        clientId: dev.clientId,
        clientSecret: dev.clientSecret,
        name: 'dev-idp',
      }),
      close: () => dev.close(),
    };
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    fail(
      `--dev-idp needs oidc-provider, a devDependency, which is not installed: run npm install (without --omit=dev). ${(error as Error).message}`,
    );
  }
}
