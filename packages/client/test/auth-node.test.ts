import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationError } from '@mcp-fw/client';
import { FileTokenStore, loopbackRedirect, type LoopbackRedirect } from '@mcp-fw/client/node';
import { parseBearerChallenge } from '../src/auth/challenge.ts';

// The Node-only pieces of the client's OAuth (@mcp-fw/client/node), and the challenge parser.

const dirs: string[] = [];
const redirects: LoopbackRedirect[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const redirect of redirects.splice(0)) await redirect.close();
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-client-auth-'));
  dirs.push(dir);
  return dir;
}

describe('FileTokenStore', () => {
  it('keeps tokens across instances in a file only the user can read', async () => {
    const path = join(scratch(), 'nested', 'tokens.json');
    const store = new FileTokenStore(path);
    expect(await store.get('tokens x')).toBeUndefined();
    await Promise.all([
      store.set('tokens a', { accessToken: 'A' }),
      store.set('tokens b', { accessToken: 'B' }),
      store.set('client c', { clientId: 'C' }),
    ]);
    await store.delete('tokens b');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = new FileTokenStore(path);
    expect(await again.get('tokens a')).toEqual({ accessToken: 'A' });
    expect(await again.get('tokens b')).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      'tokens a': { accessToken: 'A' },
      'client c': { clientId: 'C' },
    });
  });

  it('a corrupt store file names the file and the fix', async () => {
    const path = join(scratch(), 'tokens.json');
    writeFileSync(path, '[1, 2');
    await expect(new FileTokenStore(path).get('k')).rejects.toThrow(
      `The token store ${path} is not a JSON object; delete it to sign in again.`,
    );
  });
});

describe('loopbackRedirect', () => {
  it('opens the authorization URL and resolves with the redirect the browser brings back', async () => {
    const opened: URL[] = [];
    const redirect = await loopbackRedirect({
      open: async (url) => {
        opened.push(url);
        // The browser: the authorization server sends it back to the loopback port.
        const back = new URL(redirect.redirectUrl);
        back.search = '?code=abc&state=s1&iss=https%3A%2F%2Fauth.example.com';
        const page = await fetch(back);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('Signed in.');
      },
    });
    redirects.push(redirect);
    expect(redirect.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const back = await redirect.onAuthorizationUrl(
      new URL('https://auth.example.com/authorize?x=1'),
    );
    expect(opened.map(String)).toEqual(['https://auth.example.com/authorize?x=1']);
    expect(back.searchParams.get('code')).toBe('abc');
    expect(back.searchParams.get('iss')).toBe('https://auth.example.com');
    // Nothing is waiting now: a stray request to the callback is not taken for a sign-in.
    expect((await fetch(redirect.redirectUrl)).status).toBe(404);
  });

  it('keeps a CLI process alive while the person signs in, and lets it exit after', async () => {
    // A program whose only pending work is the sign-in (the built package, as a CLI runs it).
    const program = `
      import { loopbackRedirect } from '@mcp-fw/client/node';
      const redirect = await loopbackRedirect({ open: () => console.log(redirect.redirectUrl) });
      const back = await redirect.onAuthorizationUrl(new URL('https://auth.example.com/authorize'));
      console.log('came back with ' + back.searchParams.get('code'));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const printed = await new Promise<string>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      }),
    );
    // The person takes a while: the process must still be there.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${printed}?code=xyz&state=s`)).status).toBe(200);
    expect(await exited).toBe(0);
    expect(out).toContain('came back with xyz');
  });

  it('a browser that never comes back fails after timeoutMs, naming the redirect URL', async () => {
    const redirect = await loopbackRedirect({ open: () => {}, timeoutMs: 200 });
    redirects.push(redirect);
    const error = await redirect
      .onAuthorizationUrl(new URL('https://auth.example.com/authorize'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as Error).message).toContain(`never came back to ${redirect.redirectUrl}`);
  });
});

describe('the WWW-Authenticate parser', () => {
  it('reads the Bearer challenge among others, with quoted and token values', () => {
    expect(
      parseBearerChallenge(
        'Basic realm="x", Bearer error=insufficient_scope, scope="a b", resource_metadata="https://h.example/prm"',
      ),
    ).toEqual({
      scheme: 'bearer',
      dpop: false,
      error: 'insufficient_scope',
      scope: 'a b',
      resourceMetadata: new URL('https://h.example/prm'),
      errorDescription: undefined,
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    // A server that challenges with DPoP only (RFC 9449 §7.1) is read the same way.
    expect(parseBearerChallenge('DPoP algs="ES256", error="use_dpop_nonce"')).toMatchObject({
      scheme: 'dpop',
      error: 'use_dpop_nonce',
    });
    expect(parseBearerChallenge(null)).toBeUndefined();
  });

  it.each([
    ['a parameter given twice', 'Bearer scope="a", SCOPE="b"', 'parameter scope is given twice'],
    [
      'two Bearer challenges',
      'Bearer scope="a", Bearer scope="b"',
      'more than one Bearer challenge',
    ],
    ['an unterminated quoted string', 'Bearer scope="a', 'a quoted string is not terminated'],
    [
      'a line break (header injection)',
      'Bearer scope="a"\r\nSet-Cookie: x=1',
      'control characters',
    ],
    [
      'a resource_metadata that is not http(s)',
      'Bearer resource_metadata="javascript:alert(1)"',
      'is not an http(s) URL',
    ],
  ])('refuses %s (bad-challenge)', (_what, header, message) => {
    let error: unknown;
    try {
      parseBearerChallenge(header);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).reason).toBe('bad-challenge');
    expect((error as Error).message).toContain(message);
  });
});
