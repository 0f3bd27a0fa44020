// Who signs people in: GitHub, the identity provider this server's own authorization
// server sends them to (written by create-mcp-server; see .env.example and the README for what to
// register there). Its settings come from the environment; startup fails naming a missing one.
import { upstreams, type UpstreamProvider } from '@mcp-fw/auth/server';
import { required, type Env } from './auth.js';

/** The identity provider's name, as people know it. */
export const IDP = 'GitHub';

/** The environment variables it needs, and what each holds. */
export const IDP_VARIABLES: Readonly<Record<string, string>> = {
  GITHUB_CLIENT_ID: 'the Client ID of your GitHub OAuth app',
  GITHUB_CLIENT_SECRET: 'a client secret of that OAuth app',
};

/** The upstream of `authorizationServer`, from `env` (process.env in production). */
export function upstream(env: Env): UpstreamProvider {
  const v = (name: string) => required(env, name, IDP_VARIABLES[name]);
  return upstreams.github({
    clientId: v('GITHUB_CLIENT_ID'),
    clientSecret: v('GITHUB_CLIENT_SECRET'),
  });
}
