import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

/**
 * An enterprise identity provider on 127.0.0.1 for the enterprise-managed authorization
 * extension: its key set at `/jwks` (RS256, from jose), ID tokens for the test's people, and
 * an RFC 8693 token exchange at `/token` that turns such an ID token into an ID-JAG for the
 * audience (our issuer) and resource asked, issued to the client the IdP maps its own client
 * to (as an IdP admin configures it).
 */
export interface EnterpriseIdp {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  /** An ID token for `sub`, audience the IdP client `idpClientId`. */
  idToken(sub: string, idpClientId: string, extra?: JWTPayload): Promise<string>;
  /** An ID-JAG signed with the IdP's key: valid claims for `audience`/`resource`/`clientId`, `claims` and `header` override. */
  idJag(
    base: { audience: string; resource: string; clientId: string },
    claims?: JWTPayload,
    header?: Record<string, unknown>,
    key?: CryptoKey,
  ): Promise<string>;
  /** The token exchange requests it answered. */
  readonly exchanges: Record<string, string>[];
  close(): Promise<void>;
}

export async function enterpriseIdp(options: {
  /** The IdP's clients (id and secret) and the client id each has at the MCP authorization server. */
  clients: Record<string, { secret: string; mcpClientId: string }>;
}): Promise<EnterpriseIdp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };
  const exchanges: Record<string, string>[] = [];
  let issuer = '';

  const sign = (claims: JWTPayload, header: Record<string, unknown>, key = privateKey) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iat: now,
      exp: now + 300,
      jti: randomBytes(12).toString('hex'),
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1', ...header })
      .sign(key);
  };
  const idJag: EnterpriseIdp['idJag'] = (base, claims = {}, header = {}, key) =>
    sign(
      {
        iss: issuer,
        sub: 'employee-42',
        aud: base.audience,
        resource: base.resource,
        client_id: base.clientId,
        scope: 'notes:read',
        email: 'alex@acme.example',
        ...claims,
      },
      { typ: 'oauth-id-jag+jwt', ...header },
      key,
    );

  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
    if (req.url === '/jwks') return answer(200, { keys: [jwk] });
    if (req.url !== '/token' || req.method !== 'POST') return answer(404, { error: 'not_found' });
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c;
    });
    req.on('end', async () => {
      const f = Object.fromEntries(new URLSearchParams(body));
      exchanges.push(f);
      let clientId = f.client_id;
      let secret = f.client_secret;
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) {
        const [id, s] = Buffer.from(basic[1], 'base64').toString().split(':');
        clientId = decodeURIComponent(id);
        secret = decodeURIComponent(s);
      }
      const client = options.clients[clientId];
      if (!client || client.secret !== secret)
        return answer(401, { error: 'invalid_client', error_description: 'unknown client' });
      if (f.grant_type !== 'urn:ietf:params:oauth:grant-type:token-exchange')
        return answer(400, { error: 'unsupported_grant_type' });
      if (f.requested_token_type !== 'urn:ietf:params:oauth:token-type:id-jag')
        return answer(400, { error: 'invalid_request', error_description: 'id-jag only' });
      let subject: JWTPayload;
      try {
        ({ payload: subject } = await jwtVerify(f.subject_token, publicKey, {
          issuer,
          audience: clientId,
        }));
      } catch (error) {
        return answer(400, { error: 'invalid_grant', error_description: String(error) });
      }
      const jag = await idJag(
        { audience: f.audience, resource: f.resource, clientId: client.mcpClientId },
        { sub: subject.sub, email: subject.email, ...(f.scope ? { scope: f.scope } : {}) },
      );
      answer(200, {
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        access_token: jag,
        token_type: 'N_A',
        expires_in: 300,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    idToken: (sub, idpClientId, extra = {}) =>
      sign(
        { iss: issuer, sub, aud: idpClientId, email: `${sub}@acme.example`, ...extra },
        {
          typ: 'JWT',
        },
      ),
    idJag,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
