// `npm run dev`: the development authorization server, started once and kept up, and the MCP
// server (src/main.ts) beside it, restarted by tsx on every save. Tokens and client
// registrations live in the authorization server, so a client stays signed in across reloads,
// and its issuer is http://127.0.0.1:3001 (DEV_AUTH_PORT, else PORT + 1) on every start.
// The authorization server approves every sign-in as "dev": never use it in production.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { declaredScopes } from '@mcp-fw/auth';
import { devAuthPort, listenSettings, SettingsError } from './auth.js';
import { server } from './server.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let listen;
let port;
try {
  listen = listenSettings(process.env, true);
  port = devAuthPort(process.env, listen);
} catch (error) {
  if (error instanceof SettingsError) fail(error.message);
  throw error;
}

let auth;
try {
  const { devAuthorizationServer } = await import('@mcp-fw/auth/dev');
  auth = await devAuthorizationServer({
    resource: listen.resource,
    // The scopes declared at start; restart npm run dev after declaring a new one.
    scopes: declaredScopes(server),
    port,
  });
} catch (error) {
  const code = (error as { code?: string }).code;
  if (code === 'ERR_MODULE_NOT_FOUND')
    fail(
      `npm run dev needs oidc-provider, a devDependency, which is not installed: run npm install (without --omit=dev). ${(error as Error).message}`,
    );
  if (code === 'EADDRINUSE') fail(`${(error as Error).message} with DEV_AUTH_PORT=<port>.`);
  throw error;
}
process.stderr.write(
  `Development authorization server (approves every sign-in as "dev"; never use it in production): ${auth.issuer}\n`,
);

// tsx restarts src/main.ts when a file it imports changes; main.ts trusts the server above.
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const child = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', 'src/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(listen.port),
    MCP_RESOURCE_URL: listen.resource,
    OAUTH_ISSUER: auth.issuer,
    OAUTH_JWKS_URL: auth.jwksUri,
  },
});
const stop = () => {
  child.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
child.once('exit', (code) => {
  void auth.close().then(() => process.exit(code ?? 0));
});
