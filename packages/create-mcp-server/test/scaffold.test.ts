import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir, tree } from './support/cli.ts';
import { OAUTH_OVERLAY, OWN_AUTHORIZATION_SERVER_OVERLAY, TEMPLATES } from '../src/templates.ts';
import { FRAMEWORK_PACKAGES, OPTIONAL_FRAMEWORK_PACKAGES } from '../src/framework-packages.ts';

let cwd: string;
let remove: () => void;
beforeEach(() => {
  ({ dir: cwd, remove } = tempDir('scaffold'));
});
afterEach(() => remove());

// --published: the template as a registry user gets it (run from this clone, the scaffolder
// would pack the framework into vendor/ instead, which the last tests check).
async function create(args: string[]): Promise<Record<string, string>> {
  const result = await runCli([...args, '--published', '--no-install', '--no-git', '--yes'], {
    cwd,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return tree(join(cwd, args[0].replace(/^@[^/]+\//, '')));
}

const COMMON = [
  '.gitignore',
  'README.md',
  'package.json',
  'src/main.ts',
  'src/server.ts',
  'tsconfig.json',
  'vitest.config.ts',
];

it('offers exactly the folders of the root templates/, the OAuth overlays aside', () => {
  expect(
    [...TEMPLATES.map((t) => t.name), OAUTH_OVERLAY, OWN_AUTHORIZATION_SERVER_OVERLAY].sort(),
  ).toEqual(readdirSync(join(REPO_ROOT, 'templates')).sort());
});

describe.each([
  [
    'basic',
    ['src/greetings.ts', 'src/schemas.gen.ts', 'test/schemas.test.ts', 'test/server.test.ts'],
  ],
  ['http', ['src/notes.ts', 'test/http-security.test.ts', 'test/notes.test.ts']],
  [
    'full',
    [
      'src/book-resources.ts',
      'src/books.ts',
      'src/catalog.ts',
      'src/prompts.ts',
      'src/reservations.ts',
      'test/prompts.test.ts',
      'test/resources.test.ts',
      'test/tools.test.ts',
    ],
  ],
])('the %s template', (template, own) => {
  it('writes a complete project named after the directory, and nothing from the repository', async () => {
    const files = await create(['my-server', '--template', template]);
    expect(Object.keys(files)).toEqual([...COMMON, ...own].sort((a, b) => a.localeCompare(b)));
    for (const [path, text] of Object.entries(files)) {
      expect(text, path).not.toContain('mcp-fw-template');
      expect(text, path).not.toContain('<!-- transport:');
      expect(text, path).not.toContain('<!-- auth:');
      expect(text, path).not.toContain('OAUTH_ISSUER');
    }
    const pkg = JSON.parse(files['package.json']);
    expect(pkg.name).toBe('my-server');
    expect(Object.keys(pkg.scripts)).toEqual(['dev', 'build', 'start', 'test', 'inspect']);
    // basic's schemas come from its TypeScript types (@mcp-fw/typescript); the others use zod.
    // http keeps its sessions and notes in Redis with --redis / REDIS_URL.
    const typed = template === 'basic';
    const redis =
      template === 'http' ? { '@mcp-fw/redis': '^0.1.0', '@redis/client': '6.3.1' } : {};
    expect(pkg.dependencies).toEqual(
      typed ? { '@mcp-fw/core': '^0.1.0' } : { '@mcp-fw/core': '^0.1.0', ...redis, zod: '^4.6.7' },
    );
    expect(pkg.devDependencies).toEqual({
      '@mcp-fw/cli': '^0.1.0',
      ...(typed ? { '@mcp-fw/typescript': '^0.1.0' } : {}),
      '@types/node': '20.19.43',
      typescript: '7.0.2',
      vite: '8.3.8',
      vitest: '4.1.12',
    });
    expect(JSON.parse(files['tsconfig.json'].replace(/^\s*\/\/.*$/gm, ''))).not.toHaveProperty(
      'references',
    );
    expect(files['.gitignore']).toBe('node_modules/\ndist/\n*.tsbuildinfo\n*.log\n.env\n');
    expect(files['src/server.ts']).toContain(`name: 'my-server',`);
  });
});

it('serves stdio by default, and keeps only the stdio half of the README', async () => {
  const files = await create(['my-server', '--template', 'basic']);
  expect(JSON.parse(files['package.json']).scripts).toMatchObject({
    dev: 'mcp-fw dev src/server.ts',
    start: 'mcp-fw start dist/server.js',
  });
  expect(files['README.md']).toContain(
    '"args": ["/absolute/path/to/this/project/dist/server.launch.cjs"]',
  );
  expect(files['README.md']).not.toContain('mcp-remote');
});

it('serves HTTP (on PORT, else 3000) with --transport http, and keeps only the HTTP half of the README', async () => {
  const files = await create(['my-server', '--template', 'full', '--transport', 'http']);
  expect(JSON.parse(files['package.json']).scripts).toMatchObject({
    dev: 'mcp-fw dev src/server.ts --http',
    start: 'mcp-fw start dist/server.js --http',
  });
  expect(files['README.md']).toContain('"args": ["-y", "mcp-remote", "http://127.0.0.1:3000/mcp"]');
  expect(files['README.md']).not.toContain('dist/server.launch.cjs"]');
});

it('lays the OAuth overlay over the http template with --auth oauth', async () => {
  const files = await create(['my-server', '--template', 'http', '--auth', 'oauth']);
  const plain = await create(['plain-server', '--template', 'http', '--auth', 'none']);
  // The overlay's own files join the template's; its package.overlay.json and the repository's
  // tsconfig.workspace.json do not reach the project.
  expect(Object.keys(files)).toEqual(
    [...Object.keys(plain), 'src/auth.ts', 'src/dev.ts', 'test/oauth.test.ts'].sort((a, b) =>
      a.localeCompare(b),
    ),
  );
  for (const [path, text] of Object.entries(files)) {
    expect(text, path).not.toContain('mcp-fw-template');
    expect(text, path).not.toContain('<!-- ');
  }
  const pkg = JSON.parse(files['package.json']);
  expect(pkg.scripts).toEqual({
    dev: 'tsx src/dev.ts',
    build: 'mcp-fw build',
    start: 'node dist/main.js',
    test: 'vitest run',
    inspect: 'mcp-fw inspect src/server.ts',
  });
  expect(pkg.dependencies).toEqual({
    '@mcp-fw/auth': '^0.1.0',
    '@mcp-fw/core': '^0.1.0',
    '@mcp-fw/redis': '^0.1.0',
    '@redis/client': '6.3.1',
    zod: '^4.6.7',
  });
  expect(pkg.devDependencies).toMatchObject({
    '@mcp-fw/cli': '^0.1.0',
    'oidc-provider': '9.13.3',
    tsx: '4.23.15',
  });
  expect(files['src/notes.ts']).toContain("@Scopes('notes:read')");
  expect(files['src/notes.ts']).toContain("scopes: ['notes:write']");
  expect(files['src/main.ts']).toContain('...protection(server, listen, issuer)');
  expect(files['src/server.ts']).toContain(`name: 'my-server',`);
  expect(files['README.md']).toContain('| `OAUTH_ISSUER` |');
  expect(files['README.md']).toContain('npx mcp-fw auth doctor http://127.0.0.1:3000/mcp');
  expect(files['README.md']).not.toContain('and bundles it');
  // Unchanged where OAuth changes nothing.
  expect(files['test/notes.test.ts']).toBe(
    plain['test/notes.test.ts'].replaceAll('plain-server', 'my-server'),
  );
  expect(plain['README.md']).not.toContain('OAuth');
});

it('names a scoped package after its scope, in a folder without it', async () => {
  const files = await create(['@acme/weather', '--template', 'basic']);
  expect(JSON.parse(files['package.json']).name).toBe('@acme/weather');
  expect(files['src/server.ts']).toContain(`name: '@acme/weather',`);
});

it('prints the next steps and the exact Claude Desktop configuration', async () => {
  const result = await runCli(
    ['my-server', '--template', 'basic', '--no-install', '--no-git', '--yes'],
    { cwd },
  );
  expect(result.stdout).toBe(
    [
      '',
      `Creating my-server in ${join(cwd, 'my-server')} (template basic, stdio)`,
      `Packing @mcp-fw/core, @mcp-fw/cli and @mcp-fw/typescript from ${REPO_ROOT} into vendor/ (they are not taken from the registry; --published would)…`,
      '',
      'Done.',
      '',
      'Next steps:',
      '',
      '  cd my-server',
      '  npm install       # install the dependencies',
      '  npm run dev       # serve it from src/, restarting on every change',
      '  npm test          # run its tests',
      '  npm run inspect   # list its tools, resources and prompts',
      '  npm run build     # compile and bundle it into dist/',
      '',
      'To use it from Claude Desktop, build it (npm run build), then add this to claude_desktop_config.json',
      '(Settings → Developer → Edit Config) and restart Claude Desktop:',
      '',
      JSON.stringify(
        {
          mcpServers: {
            'my-server': {
              command: 'node',
              args: [join(cwd, 'my-server', 'dist', 'server.launch.cjs')],
            },
          },
        },
        null,
        2,
      ),
      '',
      'It depends on @mcp-fw/core, @mcp-fw/cli and @mcp-fw/typescript by file: from its vendor/ folder: keep that folder with the project.',
      '',
      '',
    ].join('\n'),
  );
});

it('speaks the package manager it was launched with', async () => {
  const result = await runCli(
    // --published: which package manager speaks is no matter of where @mcp-fw/* come from, and
    // packing them costs seconds.
    ['my-server', '--template', 'http', '--published', '--no-install', '--no-git', '--yes'],
    {
      cwd,
      env: { npm_config_user_agent: 'pnpm/9.15.0 npm/? node/v20.20.2 linux x64' },
    },
  );
  expect(result.status).toBe(0);
  expect(result.stdout).toContain(
    [
      '  cd my-server',
      '  pnpm install   # install the dependencies',
      '  pnpm dev       # serve it from src/, restarting on every change',
      '  pnpm test      # run its tests',
      '  pnpm inspect   # list its tools, resources and prompts',
      '  pnpm build     # compile and bundle it into dist/',
      '',
      'To use it from Claude Desktop, start it (pnpm build && pnpm start: http://127.0.0.1:3000/mcp), then add this',
    ].join('\n'),
  );
  expect(result.stdout).toContain(
    JSON.stringify(
      {
        mcpServers: {
          'my-server': { command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:3000/mcp'] },
        },
      },
      null,
      2,
    ),
  );
});

it('writes into a directory that is not empty with --force, keeping the other files', async () => {
  await create(['my-server', '--template', 'basic']);
  const result = await runCli(
    [
      'my-server',
      '--template',
      'full',
      '--published',
      '--no-install',
      '--no-git',
      '--force',
      '--yes',
    ],
    { cwd },
  );
  expect(result.status).toBe(0);
  const files = tree(join(cwd, 'my-server'));
  expect(files['src/greetings.ts']).toContain('class Greetings');
  expect(files['src/server.ts']).toContain('createLibraryServer');
});

it('run from this clone, packs the framework into vendor/ and depends on it by file:', async () => {
  const result = await runCli(
    ['my-server', '--template', 'full', '--no-install', '--no-git', '--yes'],
    { cwd },
  );
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const dir = join(cwd, 'my-server');
  expect(readdirSync(join(dir, 'vendor'))).toEqual([
    'mcp-fw-cli-0.1.0.tgz',
    'mcp-fw-core-0.1.0.tgz',
  ]);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  expect(pkg.dependencies).toEqual({
    '@mcp-fw/core': 'file:vendor/mcp-fw-core-0.1.0.tgz',
    zod: '^4.6.7',
  });
  expect(pkg.devDependencies['@mcp-fw/cli']).toBe('file:vendor/mcp-fw-cli-0.1.0.tgz');
  // The CLI depends on core by version: the override keeps the registry out of it too.
  expect(pkg.overrides).toEqual({
    '@mcp-fw/cli': 'file:vendor/mcp-fw-cli-0.1.0.tgz',
    '@mcp-fw/core': 'file:vendor/mcp-fw-core-0.1.0.tgz',
  });
});

// The row: `npm install @mcp-fw/core` / `@mcp-fw/redis` 404 (nothing is on the registry
// yet). A project made from a clone must depend on no @mcp-fw package by version.
describe('npm install @mcp-fw/core / @mcp-fw/redis in the guides 404: a project made from a clone gets every @mcp-fw package it names packed', () => {
  it('knows every @mcp-fw package of the repository', () => {
    const published = readdirSync(join(REPO_ROOT, 'packages'))
      .map((folder) =>
        JSON.parse(readFileSync(join(REPO_ROOT, 'packages', folder, 'package.json'), 'utf8')),
      )
      .filter((pkg) => !pkg.private && pkg.name.startsWith('@mcp-fw/'))
      .map((pkg) => pkg.name)
      .sort();
    expect(Object.keys({ ...FRAMEWORK_PACKAGES, ...OPTIONAL_FRAMEWORK_PACKAGES }).sort()).toEqual(
      published,
    );
  });

  it.each([
    ['basic', [], ['@mcp-fw/cli', '@mcp-fw/core', '@mcp-fw/typescript']],
    ['http', [], ['@mcp-fw/cli', '@mcp-fw/core', '@mcp-fw/redis']],
    ['http', ['--auth', 'oauth'], ['@mcp-fw/auth', '@mcp-fw/cli', '@mcp-fw/core', '@mcp-fw/redis']],
  ])(
    'the %s template %j',
    async (template, options, expected) => {
      const result = await runCli(
        ['my-server', '--template', template, ...options, '--no-install', '--no-git', '--yes'],
        { cwd },
      );
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const dir = join(cwd, 'my-server');
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const framework = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
        ([name]) => name.startsWith('@mcp-fw/'),
      );
      expect(framework.map(([name]) => name).sort()).toEqual(expected);
      const vendor = readdirSync(join(dir, 'vendor'));
      for (const [name, spec] of framework) {
        const file = `${name.slice(1).replace('/', '-')}-0.1.0.tgz`;
        expect(spec, name).toBe(`file:vendor/${file}`);
        expect(vendor, name).toContain(file);
      }
    },
    120_000,
  );
});
