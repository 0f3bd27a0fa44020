import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite } from '../../client/test/support/conformance-suite.ts';
import { freePort } from './support/protected.ts';
import {
  Browser,
  ownAuthorizationServer,
  type OwnAuthorizationServer,
} from './support/own-authorization-server.ts';

// The official conformance suite's `authorization` mode (0.2.0-alpha.12) against our
// authorization server: its metadata scenario, and the authorization code grant, whose sign-in
// (upstream login page, our consent page) the test's browser completes by form posts. The suite
// has no scenario for the client credentials or jwt-bearer grants (authorization-server-machine
// covers them); here it checks the metadata that advertises them. A suite
// process per revision: in its own CI step (vitest.separate.ts).

let env: OwnAuthorizationServer;
let port: number;
let suite: { node: string; suite: string };

beforeAll(async () => {
  suite = conformanceSuite();
  port = await freePort();
  env = await ownAuthorizationServer({
    clients: [
      {
        clientId: 'conformance',
        redirectUris: [`http://127.0.0.1:${port}/callback`],
        name: 'Conformance suite',
      },
      // Machine clients and a trusted IdP, so the metadata the suite checks advertises
      // client_credentials, the jwt-bearer grant and private_key_jwt too.
      {
        clientId: 'machine',
        jwks: {
          keys: [
            {
              kty: 'OKP',
              crv: 'Ed25519',
              x: 'm5N7gTItgWz6udWjuqzJsqX-vksUnxJrNjD5OahyqKw',
              kid: 'm',
            },
          ],
        },
        grantTypes: ['client_credentials'],
      },
    ],
    trustedIdentityProviders: [
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks' },
    ],
  });
}, 600_000);
afterAll(() => env?.close());

function runSuite(specVersion: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      suite.node,
      [
        suite.suite,
        'authorization',
        '--url',
        env.origin,
        '--client-id',
        'conformance',
        '--resource',
        env.resource,
        '--port',
        String(port),
        '--spec-version',
        specVersion,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let signedIn = false;
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = new RegExp(`^${env.origin}/oauth/authorize\\?\\S+$`, 'm').exec(output)?.[0];
      if (url && !signedIn) {
        signedIn = true;
        const callback = `http://127.0.0.1:${port}/callback`;
        // What the person's browser does: sign in upstream, allow, land on the suite's callback.
        void new Browser()
          .go(url, callback)
          .then((params) => fetch(`${callback}?${params}`))
          .catch((error: Error) => {
            output += `\n[test browser] ${error.message}\n`;
            child.kill();
          });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('conformance authorization mode against our authorization server', () => {
  it.each(['2025-11-25', '2026-07-28'])(
    'every scenario passes (%s)',
    async (specVersion) => {
      const { code, output } = await runSuite(specVersion);
      expect(output).toMatch(/✓ authorization-server-metadata-endpoint: [1-9]\d* passed, 0 failed/);
      expect(output).toMatch(/✓ authorization-code-grant: 1 passed, 0 failed/);
      expect(output).toMatch(/Total: [1-9]\d* passed, 0 failed/);
      expect(output).not.toMatch(/FAILURE|SKIPPED|\[test browser\]/);
      expect(code, output).toBe(0);
    },
    120_000,
  );
});
