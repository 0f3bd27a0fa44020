import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';

/** A machine client registered with {@link machineAuthorizationServer}. */
export interface MachineClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** For `private_key_jwt`: its private key, PKCS#8 PEM (the server holds the public half). */
  readonly privateKeyPem?: string;
}

/**
 * oidc-provider on 127.0.0.1 for machine-to-machine tokens: the client credentials grant, JWT
 * access tokens for `resource` only, and three confidential clients, one per token endpoint
 * authentication (`client_secret_basic`, `client_secret_post`, `private_key_jwt` with ES256).
 * `@mcp-fw/auth/dev`'s server is for people signing in and does not offer this grant.
 */
export async function machineAuthorizationServer(options: {
  resource: string;
  scopes: readonly string[];
}): Promise<{
  issuer: string;
  jwksUri: string;
  clients: Record<'basic' | 'post' | 'jwt', MachineClient>;
  tokenRequests: { authentication: string }[];
  close(): Promise<void>;
}> {
  const { default: Provider } = await import('oidc-provider');
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signing = await generateKeyPair('RS256', { extractable: true });
  const clientKey = await generateKeyPair('ES256', { extractable: true });
  const clients = {
    basic: { clientId: 'reports-basic', clientSecret: 'basic-secret-0123456789abcdef0123456789' },
    post: { clientId: 'reports-post', clientSecret: 'post-secret-0123456789abcdef01234567890' },
    jwt: { clientId: 'reports-jwt', privateKeyPem: await exportPKCS8(clientKey.privateKey) },
  };
  const common = { grant_types: ['client_credentials'], response_types: [], redirect_uris: [] };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...common,
        client_id: clients.basic.clientId,
        client_secret: clients.basic.clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        ...common,
        client_id: clients.post.clientId,
        client_secret: clients.post.clientSecret,
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        ...common,
        client_id: clients.jwt.clientId,
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        jwks: { keys: [{ ...(await exportJWK(clientKey.publicKey)), alg: 'ES256', use: 'sig' }] },
      },
    ],
    scopes: [...options.scopes],
    jwks: {
      keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'm1', alg: 'RS256', use: 'sig' }],
    },
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: options.scopes.join(' '),
          audience: options.resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  const tokenRequests: { authentication: string }[] = [];
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url === '/token') {
      const header = req.headers.authorization;
      tokenRequests.push({ authentication: header ? (header.split(' ')[0] ?? '') : 'body' });
    }
    return callback(req, res);
  });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    clients,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
