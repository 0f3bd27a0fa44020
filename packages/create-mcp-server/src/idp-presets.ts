/** Who signs people in to a generated `--auth oauth` server. */
export type Idp =
  | 'external'
  | 'github'
  | 'google'
  | 'entra'
  | 'auth0'
  | 'okta'
  | 'keycloak'
  | 'workos'
  | 'oidc';

/** One environment variable the generated server reads for its identity provider. */
interface Variable {
  readonly name: string;
  readonly what: string;
  /** A value that shows the form (in .env.example). */
  readonly example: string;
  /** Optional: a public client (PKCE only) has no secret. */
  readonly optional?: boolean;
}

/** An identity provider preset of `upstreams` (`@mcp-fw/auth/server`), as the scaffolder writes it. */
interface Preset {
  readonly label: string;
  /** The `upstreams.*` call (or `oidcUpstream`), with `v('NAME')` for each variable. */
  readonly call: string;
  readonly variables: readonly Variable[];
  /** The app type to create at the provider. */
  readonly app: string;
  /** Where the redirect URI goes. */
  readonly where: string;
  /** Scopes the preset asks for (to allow at the provider, where it asks). */
  readonly scopes: string;
}

const secret = (prefix: string, what: string): Variable => ({
  name: `${prefix}_CLIENT_SECRET`,
  what,
  example: 'paste-the-secret-here',
});

/** The presets, in the order they are offered. */
export const PRESETS: Readonly<Record<Exclude<Idp, 'external'>, Preset>> = {
  github: {
    label: 'GitHub',
    call: "upstreams.github({ clientId: v('GITHUB_CLIENT_ID'), clientSecret: v('GITHUB_CLIENT_SECRET') })",
    variables: [
      {
        name: 'GITHUB_CLIENT_ID',
        what: 'the Client ID of your GitHub OAuth app',
        example: 'Ov23liAbCdEf',
      },
      secret('GITHUB', 'a client secret of that OAuth app'),
    ],
    app: 'an OAuth app (Settings → Developer settings → OAuth Apps → New OAuth App)',
    where:
      '"Authorization callback URL"; an OAuth app has only one, so create one app per URL below',
    scopes: 'read:user user:email (asked at sign-in; nothing to allow in the app)',
  },
  google: {
    label: 'Google',
    call: "upstreams.google({ clientId: v('GOOGLE_CLIENT_ID'), clientSecret: v('GOOGLE_CLIENT_SECRET') })",
    variables: [
      {
        name: 'GOOGLE_CLIENT_ID',
        what: 'the Client ID of your OAuth client',
        example: '1234-abc.apps.googleusercontent.com',
      },
      secret('GOOGLE', 'its client secret'),
    ],
    app: 'an OAuth client ID of type "Web application" (Google Cloud console → APIs & Services → Credentials), after configuring the OAuth consent screen',
    where: '"Authorized redirect URIs"',
    scopes: "openid email profile (the consent screen's non-sensitive scopes)",
  },
  entra: {
    label: 'Microsoft Entra ID',
    call: "upstreams.entra({ tenant: v('ENTRA_TENANT'), clientId: v('ENTRA_CLIENT_ID'), clientSecret: v('ENTRA_CLIENT_SECRET') })",
    variables: [
      {
        name: 'ENTRA_TENANT',
        what: 'the Directory (tenant) ID or domain, or organizations',
        example: 'contoso.onmicrosoft.com',
      },
      {
        name: 'ENTRA_CLIENT_ID',
        what: 'the Application (client) ID',
        example: '00000000-0000-0000-0000-000000000000',
      },
      secret('ENTRA', 'a client secret (Certificates & secrets → New client secret): its Value'),
    ],
    app: 'an app registration (Entra admin center → App registrations → New registration) with platform "Web"',
    where: 'Authentication → "Web" → "Redirect URIs"',
    scopes:
      'openid email profile offline_access (Microsoft Graph delegated permissions, granted by default)',
  },
  auth0: {
    label: 'Auth0',
    call: "upstreams.auth0({ domain: v('AUTH0_DOMAIN'), clientId: v('AUTH0_CLIENT_ID'), clientSecret: v('AUTH0_CLIENT_SECRET') })",
    variables: [
      { name: 'AUTH0_DOMAIN', what: 'your tenant domain', example: 'example.us.auth0.com' },
      { name: 'AUTH0_CLIENT_ID', what: "the application's Client ID", example: 'AbCdEf123' },
      secret('AUTH0', "the application's Client Secret"),
    ],
    app: 'an application of type "Regular Web Application" (Applications → Create Application)',
    where: 'Settings → "Allowed Callback URLs"',
    scopes:
      'openid email profile offline_access (offline_access needs "Allow Offline Access" on the API, or refresh tokens on the application)',
  },
  okta: {
    label: 'Okta',
    call: "upstreams.okta({ domain: v('OKTA_DOMAIN'), clientId: v('OKTA_CLIENT_ID'), clientSecret: v('OKTA_CLIENT_SECRET') })",
    variables: [
      { name: 'OKTA_DOMAIN', what: 'your Okta domain', example: 'example.okta.com' },
      { name: 'OKTA_CLIENT_ID', what: "the app integration's Client ID", example: '0oaAbCdEf123' },
      secret('OKTA', 'its client secret'),
    ],
    app: 'an app integration "OIDC - OpenID Connect", type "Web Application", grant types Authorization Code and Refresh Token (Applications → Create App Integration)',
    where: '"Sign-in redirect URIs"',
    scopes: 'openid email profile offline_access (on the default authorization server)',
  },
  keycloak: {
    label: 'Keycloak',
    call: "upstreams.keycloak({ baseUrl: v('KEYCLOAK_URL'), realm: v('KEYCLOAK_REALM'), clientId: v('KEYCLOAK_CLIENT_ID'), clientSecret: v('KEYCLOAK_CLIENT_SECRET') })",
    variables: [
      {
        name: 'KEYCLOAK_URL',
        what: 'where Keycloak is served',
        example: 'https://sso.example.com',
      },
      { name: 'KEYCLOAK_REALM', what: 'the realm people sign in to', example: 'example' },
      { name: 'KEYCLOAK_CLIENT_ID', what: 'the client ID', example: 'mcp-server' },
      secret('KEYCLOAK', 'its secret (Credentials tab)'),
    ],
    app: 'an OpenID Connect client with "Client authentication" on and "Standard flow" (Clients → Create client)',
    where: '"Valid redirect URIs"',
    scopes: 'openid email profile (default client scopes)',
  },
  workos: {
    label: 'WorkOS AuthKit',
    call: "upstreams.workos({ domain: v('WORKOS_AUTHKIT_DOMAIN'), clientId: v('WORKOS_CLIENT_ID'), clientSecret: v('WORKOS_API_KEY') })",
    variables: [
      {
        name: 'WORKOS_AUTHKIT_DOMAIN',
        what: 'your AuthKit domain',
        example: 'example.authkit.app',
      },
      { name: 'WORKOS_CLIENT_ID', what: 'the Client ID (API Keys page)', example: 'client_01ABC' },
      { name: 'WORKOS_API_KEY', what: 'the API key, its client secret', example: 'sk_test_abc' },
    ],
    app: 'AuthKit, in the environment you deploy to (WorkOS dashboard)',
    where: 'Redirects → "Redirect URIs"',
    scopes: 'openid email profile offline_access',
  },
  oidc: {
    label: 'an OpenID Connect provider',
    call: "oidcUpstream({ issuer: v('OIDC_ISSUER'), clientId: v('OIDC_CLIENT_ID'), clientSecret: v('OIDC_CLIENT_SECRET') })",
    variables: [
      {
        name: 'OIDC_ISSUER',
        what: 'its issuer URL (discovery at <issuer>/.well-known/openid-configuration)',
        example: 'https://idp.example.com',
      },
      { name: 'OIDC_CLIENT_ID', what: 'the client id it gave this server', example: 'mcp-server' },
      secret('OIDC', 'its client secret'),
    ],
    app: 'a confidential web client for the authorization code flow with PKCE',
    where: 'its redirect URIs',
    scopes: 'openid email profile',
  },
};

/** The "who signs people in" choices, in the order they are offered. */
export const IDPS: readonly { name: Idp; hint: string }[] = [
  { name: 'external', hint: 'your own authorization server issues the tokens (OAUTH_ISSUER)' },
  ...Object.entries(PRESETS).map(([name, preset]) => ({
    name: name as Idp,
    hint: `this server is the authorization server; people sign in with ${preset.label}`,
  })),
];

/**
 * `src/idp.ts` of a project whose server is its own authorization server with `idp` as its
 * upstream: the preset, its settings read from the environment.
 */
export function idpSource(idp: Exclude<Idp, 'external'>): string {
  const preset = PRESETS[idp];
  const imported = preset.call.startsWith('oidcUpstream') ? 'oidcUpstream' : 'upstreams';
  return `// Who signs people in: ${preset.label}, the identity provider this server's own authorization
// server sends them to (written by create-mcp-server; see .env.example and the README for what to
// register there). Its settings come from the environment; startup fails naming a missing one.
import { ${imported}, type UpstreamProvider } from '@mcp-fw/auth/server';
import { required, type Env } from './auth.js';

/** The identity provider's name, as people know it. */
export const IDP = ${JSON.stringify(preset.label)};

/** The environment variables it needs, and what each holds. */
export const IDP_VARIABLES: Readonly<Record<string, string>> = {
${preset.variables.map((v) => `  ${v.name}: ${JSON.stringify(v.what)},`).join('\n')}
};

/** The upstream of \`authorizationServer\`, from \`env\` (process.env in production). */
export function upstream(env: Env): UpstreamProvider {
  const v = (name: string) => required(env, name, IDP_VARIABLES[name]);
  return ${preset.call};
}
`;
}

/** `.env.example`: every variable the project reads in production, with its form. */
export function envExample(idp: Exclude<Idp, 'external'>): string {
  const preset = PRESETS[idp];
  return [
    '# What `npm start` reads (export them, or load this file with `node --env-file=.env dist/main.js`).',
    '# The URL clients use to reach this server; the authorization server runs on its origin.',
    'MCP_RESOURCE_URL=https://notes.example.com/mcp',
    '# 32+ random characters (openssl rand -base64 32): seals the upstream tokens it keeps.',
    'OAUTH_SECRET=',
    ...preset.variables.flatMap((v) => [`# ${preset.label}: ${v.what}`, `${v.name}=${v.example}`]),
    '',
  ].join('\n');
}

/** The README lines saying exactly what to register at the identity provider. */
export function registrationSteps(idp: Exclude<Idp, 'external'>): string {
  const preset = PRESETS[idp];
  return `At ${preset.label}, create ${preset.app}, and register these redirect URIs (${preset.where}):

- \`http://127.0.0.1:3000/oauth/callback\` to try it locally with the real provider (\`npm run build && npm start\` with \`MCP_RESOURCE_URL=http://127.0.0.1:3000/mcp\`);
- \`https://<the host of MCP_RESOURCE_URL>/oauth/callback\` in production.

Scopes: ${preset.scopes}. Then set these variables (\`.env.example\` lists them all):

| Variable | What it is |
|---|---|
${preset.variables.map((v) => `| \`${v.name}\` | ${v.what} |`).join('\n')}

With the server running, \`npx mcp-fw auth doctor <MCP_RESOURCE_URL>\` checks the whole chain, ${preset.label} included: it says whether ${preset.label} accepts the callback, and what to register if not.
`;
}
