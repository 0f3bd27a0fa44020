import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite } from '../../client/test/support/conformance-suite.ts';
import { onFreePort, portTaken } from '../../../test-support/ports.ts';
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
let suite: { node: string; suite: string };

beforeAll(async () => {
  suite = conformanceSuite();
  env = await ownAuthorizationServer({
    clients: [
      {
        clientId: 'conformance',
        // Registered without a port, as a native app's loopback redirect is (RFC 8252 §7.3):
        // each suite run picks its callback port, a fresh one when the last was taken.
        redirectUris: ['http://127.0.0.1/callback'],
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

/** What a suite run printed, its exit code, and the error of each check that failed. */
interface Run {
  readonly code: number | null;
  readonly output: string;
  /** From the checks.json files it saves (its summary on stdout names no error). */
  readonly failures: string[];
}

/**
 * One suite run, its callback server on `port`. The suite binds that port itself, long after
 * the probe: when another test file took it meanwhile, the check fails with "listen
 * EADDRINUSE" (its log still says "Callback server started": Express 5 calls back on an error
 * too) and {@link runSuite} starts it again on a fresh port.
 */
function runSuiteOn(specVersion: string, port: number): Promise<Run> {
  const results = mkdtempSync(join(tmpdir(), 'mcp-auth-conformance-'));
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
        '--output-dir',
        results,
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
    child.once('exit', (code) => {
      const failures = readdirSync(results, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('checks.json'))
        .flatMap((file) =>
          (
            JSON.parse(readFileSync(join(results, file), 'utf8')) as {
              status: string;
              errorMessage?: string;
            }[]
          )
            .filter((c) => c.status === 'FAILURE')
            .map((c) => c.errorMessage ?? '(no message)'),
        );
      rmSync(results, { recursive: true, force: true });
      resolve({ code, output, failures });
    });
  });
}

/** A suite run whose callback port was not taken by another test file (see {@link runSuiteOn}). */
function runSuite(specVersion: string): Promise<Run> {
  return onFreePort(async (port) => {
    const run = await runSuiteOn(specVersion, port);
    const taken = run.failures.find((f) => /listen EADDRINUSE/.test(f));
    if (taken) throw new Error(taken);
    return run;
  });
}

describe('conformance authorization mode against our authorization server', () => {
  it.each(['2025-11-25', '2026-07-28'])(
    'every scenario passes (%s)',
    async (specVersion) => {
      const { code, output, failures } = await runSuite(specVersion);
      expect(failures).toEqual([]);
      expect(output).toMatch(/✓ authorization-server-metadata-endpoint: [1-9]\d* passed, 0 failed/);
      expect(output).toMatch(/✓ authorization-code-grant: 1 passed, 0 failed/);
      expect(output).toMatch(/Total: [1-9]\d* passed, 0 failed/);
      expect(output).not.toMatch(/FAILURE|SKIPPED|\[test browser\]/);
      expect(code, output).toBe(0);
    },
    120_000,
  );
});

describe('the callback port of a suite run', () => {
  it('a callback port another test file holds fails the run with EADDRINUSE, which runSuite takes as a cue to try a fresh port', async () => {
    const squatter = createHttpServer((_, response) => response.end('not the suite'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    try {
      const port = (squatter.address() as { port: number }).port;
      const { output, failures } = await runSuiteOn('2025-11-25', port);
      expect(output).toMatch(/authorization-code-grant: 0 passed, 1 failed/);
      expect(failures).toEqual([`listen EADDRINUSE: address already in use 127.0.0.1:${port}`]);
      expect(portTaken(new Error(failures[0]))).toBe(true);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 120_000);
});
