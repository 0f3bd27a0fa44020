/** What to configure at one identity provider so an authorization server can sign people in there. */
export interface IdpHint {
  /** The provider's name, as people know it. */
  readonly idp: string;
  /** Where the redirect URI is registered, click by click. */
  readonly where: string;
}

/**
 * The identity provider an authorization URL belongs to, by its host (and Keycloak by its
 * `/realms/` path): the presets of `upstreams` in `@mcp-fw/auth/server`, then any other. The
 * same steps are in docs/guide/identity-providers.md.
 */
export function idpHint(authorizationUrl: URL): IdpHint {
  const host = authorizationUrl.hostname;
  const is = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (is('github.com'))
    return {
      idp: 'GitHub',
      where:
        'Settings → Developer settings → OAuth Apps (or GitHub Apps) → your app → "Authorization callback URL"',
    };
  if (is('accounts.google.com'))
    return {
      idp: 'Google',
      where:
        'Google Cloud console → APIs & Services → Credentials → your OAuth client ID of type "Web application" → "Authorized redirect URIs"',
    };
  if (is('login.microsoftonline.com'))
    return {
      idp: 'Microsoft Entra ID',
      where:
        'Entra admin center → App registrations → your app → Authentication → platform "Web" → "Redirect URIs"',
    };
  if (is('auth0.com'))
    return {
      idp: 'Auth0',
      where:
        'Auth0 dashboard → Applications → your application of type "Regular Web Application" → Settings → "Allowed Callback URLs"',
    };
  if (is('okta.com') || is('oktapreview.com'))
    return {
      idp: 'Okta',
      where:
        'Okta admin console → Applications → your app integration (OIDC, "Web Application") → "Sign-in redirect URIs"',
    };
  if (is('authkit.app') || is('workos.com'))
    return {
      idp: 'WorkOS',
      where: 'WorkOS dashboard → Redirects → "Redirect URIs"',
    };
  if (authorizationUrl.pathname.includes('/realms/'))
    return {
      idp: 'Keycloak',
      where:
        'Keycloak admin console → your realm → Clients → your client (Client authentication on) → "Valid redirect URIs"',
    };
  return {
    idp: host,
    where: "the identity provider's settings of this client → its redirect (callback) URIs",
  };
}
