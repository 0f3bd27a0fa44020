import { symlinkSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDPS, idpSource, PRESETS, type Idp } from '../src/idp-presets.ts';
import { REPO_ROOT, run, runCli, tempDir, tree } from './support/cli.ts';

// `--auth oauth --idp <preset>`: the http template as its own authorization server, people
// signing in at an identity provider. The overlay's own tests run in the repository as the
// http-oauth-idp project (npm run dev's development identity provider, the metadata, the
// sign-in sent on to the provider); here, what the scaffolder writes for each preset, and that
// it type-checks against the framework, without an install per case.

let cwd: string;
let remove: () => void;
beforeEach(() => {
  ({ dir: cwd, remove } = tempDir('own-as'));
});
afterEach(() => remove());

async function create(args: string[]): Promise<{ files: Record<string, string>; stdout: string }> {
  const result = await runCli([...args, '--published', '--no-install', '--no-git', '--yes'], {
    cwd,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return { files: tree(join(cwd, args[0])), stdout: result.stdout };
}

const PRESET_NAMES = Object.keys(PRESETS) as Exclude<Idp, 'external'>[];

describe('--auth oauth --idp <preset>', () => {
  it('offers external and every preset of @mcp-fw/auth/server', () => {
    expect(IDPS.map((i) => i.name)).toEqual([
      'external',
      'github',
      'google',
      'entra',
      'auth0',
      'okta',
      'keycloak',
      'workos',
      'oidc',
    ]);
  });

  it('writes the preset with env vars for its client id and secret, a .env.example, and README lines naming what to register at the IdP', async () => {
    const { files, stdout } = await create(['notes', '--auth', 'oauth', '--idp', 'google']);
    expect(stdout).toContain(
      '(template http, http, OAuth: its own authorization server, sign-in at Google)',
    );
    expect(stdout).toContain(
      'It is its own OAuth 2.1 authorization server; people sign in at Google.',
    );
    expect(stdout).toContain('In production, register <your origin>/oauth/callback at Google');
    expect(files['src/idp.ts']).toBe(idpSource('google'));
    expect(files['src/idp.ts']).toContain('upstreams.google({');
    expect(files['src/idp.ts']).toContain("clientId: v('GOOGLE_CLIENT_ID')");
    expect(files['src/idp.ts']).toContain("clientSecret: v('GOOGLE_CLIENT_SECRET')");
    expect(files['.env.example']).toMatch(/^MCP_RESOURCE_URL=/m);
    expect(files['.env.example']).toMatch(/^OAUTH_SECRET=/m);
    expect(files['.env.example']).toMatch(/^GOOGLE_CLIENT_ID=.*\.apps\.googleusercontent\.com$/m);
    expect(files['.env.example']).toMatch(/^GOOGLE_CLIENT_SECRET=/m);
    const readme = files['README.md'];
    expect(readme).toContain(
      'At Google, create an OAuth client ID of type "Web application" (Google Cloud console → APIs & Services → Credentials)',
    );
    expect(readme).toContain('"Authorized redirect URIs"');
    expect(readme).toContain('`http://127.0.0.1:3000/oauth/callback`');
    expect(readme).toContain('`https://<the host of MCP_RESOURCE_URL>/oauth/callback`');
    expect(readme).toContain('| `GOOGLE_CLIENT_ID` |');
    expect(readme).toContain('npx mcp-fw auth doctor');
    // Only the own-authorization-server half: no external issuer to set, no marker left.
    expect(readme).not.toContain('OAUTH_ISSUER');
    expect(readme).not.toContain('<!-- ');
    for (const [path, text] of Object.entries(files)) {
      expect(text, path).not.toContain('mcp-fw-template');
    }
    expect(Object.keys(files).filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual(
      [
        'src/auth.ts',
        'src/idp.ts',
        'src/main.ts',
        'src/notes.ts',
        'src/server.ts',
        'test/http-security.test.ts',
        'test/notes.test.ts',
        'test/own-auth.test.ts',
      ],
    );
    const pkg = JSON.parse(files['package.json']);
    expect(pkg.scripts.dev).toBe('tsx watch --clear-screen=false src/main.ts --dev-idp');
    expect(pkg.dependencies['@mcp-fw/auth']).toBe('^0.1.0');
    expect(pkg.devDependencies['oidc-provider']).toBe('9.13.3');
  });

  it('leaves --auth oauth alone (with --yes) as the external authorization server it was', async () => {
    const { files } = await create(['notes', '--auth', 'oauth']);
    expect(files['README.md']).toContain('| `OAUTH_ISSUER` |');
    expect(files['README.md']).not.toContain('/oauth/callback');
    expect(files).not.toHaveProperty('src/idp.ts');
    expect(files).not.toHaveProperty('.env.example');
  });

  it("the two OAuth overlays' src/notes.ts and src/server.ts are one file each, copied (a change to one cannot miss the other)", () => {
    // Each overlay stands alone in the user's project (see templates/http-oauth-idp/tsconfig.workspace.json).
    for (const file of ['src/notes.ts', 'src/server.ts'])
      expect(
        readFileSync(join(REPO_ROOT, 'templates/http-oauth-idp', file), 'utf8'),
        `templates/http-oauth-idp/${file} is templates/http-oauth/${file}`,
      ).toBe(readFileSync(join(REPO_ROOT, 'templates/http-oauth', file), 'utf8'));
  });

  it("the overlay's src/idp.ts is what the scaffolder writes for GitHub (up to formatting)", () => {
    const flat = (text: string) =>
      text
        .replace(/\s+/g, '')
        .replaceAll('"', "'")
        .replace(/,([)}])/g, '$1');
    expect(flat(readFileSync(join(REPO_ROOT, 'templates/http-oauth-idp/src/idp.ts'), 'utf8'))).toBe(
      flat(idpSource('github')),
    );
  });

  it('every preset the scaffolder writes type-checks against the framework, and the generated project passes its own tests', async () => {
    const { files } = await create(['notes', '--idp', 'keycloak']);
    const dir = join(cwd, 'notes');
    expect(files['src/idp.ts']).toContain('upstreams.keycloak({');
    // The repository's packages stand in for an install; each other preset beside keycloak's.
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const name of PRESET_NAMES)
      writeFileSync(join(dir, 'src', `idp-${name}.ts`), idpSource(name));
    const typed = await run(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'],
      { cwd: dir },
    );
    expect(`${typed.stdout}${typed.stderr}`).toBe('');
    expect(typed.status).toBe(0);
    const tested = await run(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/own-auth.test.ts'],
      { cwd: dir },
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colours of vitest's summary
    expect(`${tested.stdout}${tested.stderr}`.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(
      /Tests {2}6 passed/,
    );
    expect(tested.status).toBe(0);
  }, 120_000);
});

describe('bad input', () => {
  it('refuses an unknown identity provider, naming the choices', async () => {
    const result = await runCli(['notes', '--idp', 'myspace', '--yes'], { cwd });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'unknown identity provider "myspace"; choose one of external, github, google, entra, auth0, okta, keycloak, workos, oidc',
    );
  });

  it('refuses --idp with --auth none, naming the fix', async () => {
    const result = await runCli(['notes', '--auth', 'none', '--idp', 'github', '--yes'], { cwd });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      '--idp github chooses who signs people in to an OAuth-protected server; drop --auth none, or pass --auth oauth',
    );
  });
});
