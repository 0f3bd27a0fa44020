// Streamable HTTP at http://127.0.0.1:3000/mcp (PORT=N picks another port) as an OAuth 2.1
// protected resource: every request needs a bearer token for this server from the authorization
// server named by OAUTH_ISSUER, with the scopes of what it calls (src/notes.ts). `--dev-auth`
// starts a local development authorization server instead, which approves every sign-in, at
// http://127.0.0.1:3001 (DEV_AUTH_PORT, else PORT + 1). `npm run dev` runs src/dev.ts instead:
// the same server, restarted on every save, beside an authorization server that stays up.
// The security defaults stay on: the server listens on 127.0.0.1 only (put it behind a TLS
// proxy to serve other machines) and refuses foreign Host and Origin headers.
import { PortInUseError, serveHttp } from '@mcp-fw/core/node';
import { declaredScopes } from '@mcp-fw/auth';
import {
  allowedHosts,
  devAuthPort,
  issuerSettings,
  listenSettings,
  protection,
  SettingsError,
  type IssuerSettings,
  type ListenSettings,
} from './auth.js';
import { server } from './server.js';

const devAuth = process.argv.includes('--dev-auth');

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let listen: ListenSettings;
let issuer: IssuerSettings;
let closeAuth = async () => {};
try {
  listen = listenSettings(process.env, devAuth);
  if (devAuth) {
    const dev = await startDevAuthorizationServer(
      listen.resource,
      devAuthPort(process.env, listen),
    );
    issuer = { issuer: dev.issuer, jwksUri: dev.jwksUri };
    closeAuth = () => dev.close();
    process.stderr.write(
      `Development authorization server (approves every sign-in as "dev"; never use it in production): ${dev.issuer}\n`,
    );
  } else {
    issuer = issuerSettings(process.env);
  }
} catch (error) {
  if (error instanceof SettingsError) fail(error.message);
  throw error;
}

const handle = await serveHttp(server, {
  port: listen.port,
  allowedHosts: allowedHosts(listen),
  ...protection(server, listen, issuer),
}).catch((error: unknown) => {
  // Said in words (the port, who holds it, what to do) rather than as a stack trace.
  if (error instanceof PortInUseError) fail(`${error.reason}\n${error.fix('PORT=<n>')}`);
  throw error;
});
process.stderr.write(
  `MCP server listening on ${handle.url} (protected: tokens from ${issuer.issuer} for ${listen.resource})\n`,
);
const stop = () => void Promise.all([handle.close(), closeAuth()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

async function startDevAuthorizationServer(resource: string, port: number) {
  const { devAuthorizationServer } = await import('@mcp-fw/auth/dev');
  try {
    return await devAuthorizationServer({ resource, scopes: declaredScopes(server), port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Its port taken: said in words (the port, the setting to change), as npm run dev does.
    if (code === 'EADDRINUSE') fail(`${(error as Error).message} with DEV_AUTH_PORT=<port>.`);
    if (code !== 'ERR_MODULE_NOT_FOUND') throw error;
    fail(
      `--dev-auth needs oidc-provider, a devDependency, which is not installed: run npm install (without --omit=dev). ${(error as Error).message}`,
    );
  }
}
