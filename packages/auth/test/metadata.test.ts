import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTokenError } from '@mcp-fw/auth';
import { protectedServer } from './support/protected.ts';

let target: Awaited<ReturnType<typeof protectedServer>>;
beforeAll(async () => {
  target = await protectedServer(
    () => async () => {
      throw new InvalidTokenError('no tokens here');
    },
    {
      resourceName: 'Secrets',
      authorizationServers: ['https://issuer.test', 'https://other-issuer.test'],
    },
  );
});
afterAll(() => target.handle.close());

describe('RFC 9728 protected resource metadata', () => {
  const origin = () => `http://127.0.0.1:${target.handle.port}`;

  it.each([
    ['path-aware', '/.well-known/oauth-protected-resource/mcp'],
    ['root', '/.well-known/oauth-protected-resource'],
  ])(
    'is served at the %s well-known URL without a token, readable from any page',
    async (_name, path) => {
      // A page on another site: the endpoint's Origin guard (localhost pages only by default) does not apply to public metadata.
      const response = await fetch(origin() + path, { headers: { origin: 'https://app.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: target.resource,
        authorization_servers: ['https://issuer.test', 'https://other-issuer.test'],
        scopes_supported: ['notes:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Secrets',
      });
    },
  );

  it('answers a browser preflight for the metadata', async () => {
    const response = await fetch(`${origin()}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
  });

  it('refuses methods other than GET on the metadata, and leaves other paths to the endpoint', async () => {
    expect(
      (await fetch(`${origin()}/.well-known/oauth-protected-resource`, { method: 'POST' })).status,
    ).toBe(405);
    // Not a metadata path: authentication runs as for any request.
    expect((await fetch(`${origin()}/.well-known/oauth-protected-resource/other`)).status).toBe(
      401,
    );
  });
});
