import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, tree } from './support/cli.ts';
import { PTY_AVAILABLE, runInPty } from './support/pty.ts';

// The questions answer exactly what the options say: the same answers as prompts or as options
// give the same files. Each run gets its own parent folder, so the projects share their name.
// Every run, asked or not, passes --published: packing the framework into vendor/ (npm pack,
// about 4 CPU-seconds a run) is the same for both ways of choosing and scaffold.test.ts checks it.
const PUBLISHED = '--published';
let root: string;
let remove: () => void;
beforeEach(() => {
  ({ dir: root, remove } = tempDir('interactive'));
});
afterEach(() => remove());

function folder(name: string): string {
  mkdirSync(join(root, name));
  return join(root, name);
}

async function withOptions(args: string[]): Promise<string> {
  const cwd = folder('options');
  const result = await runCli([...args, PUBLISHED], { cwd });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return cwd;
}

const TEMPLATE_PROMPT = 'Choose 1-5 or a name (basic) ';
/** On a terminal the prompt also offers the arrow keys. */
const TERMINAL_TEMPLATE_PROMPT = 'Choose with ↑/↓, 1-5 or a name (basic) ';
const TERMINAL_TRANSPORT_PROMPT = 'Choose with ↑/↓, 1-2 or a name (stdio) ';
const DOWN = '\u001b[B';
const UP = '\u001b[A';

describe.skipIf(!PTY_AVAILABLE)('on a pseudo-terminal (needs util-linux `script`)', () => {
  it('asks everything, and writes what the equivalent options write', async () => {
    const cwd = folder('terminal');
    const { status, output } = await runInPty([PUBLISHED], cwd, [
      ['Project name: (my-mcp-server) ', 'library-server\r'],
      [TERMINAL_TEMPLATE_PROMPT, '3\r'],
      [TERMINAL_TRANSPORT_PROMPT, 'http\r'],
      ['Install the dependencies? (Y/n) ', 'n\r'],
      ['Initialize a git repository? (Y/n) ', '\r'],
    ]);
    expect(status).toBe(0);
    expect(output).toContain('Creating library-server in');
    expect(output).toContain('Initialized a git repository.');
    expect(existsSync(join(cwd, 'library-server', '.git', 'HEAD'))).toBe(true);

    const options = await withOptions([
      'library-server',
      '--template',
      'full',
      '--transport',
      'http',
      '--no-install',
      '--yes',
    ]);
    expect(existsSync(join(options, 'library-server', '.git', 'HEAD'))).toBe(true);
    expect(tree(join(cwd, 'library-server'))).toEqual(tree(join(options, 'library-server')));
  });

  it('chooses with the arrow keys', async () => {
    const cwd = folder('terminal');
    const { status, output } = await runInPty(['--no-install', '--no-git', PUBLISHED], cwd, [
      ['Project name: (my-mcp-server) ', 'arrows\r'],
      // ↓ ↓ from basic: http, then full; ↑ from stdio wraps around to http.
      [TERMINAL_TEMPLATE_PROMPT, `${DOWN}${DOWN}\r`],
      [TERMINAL_TRANSPORT_PROMPT, `${UP}\r`],
    ]);
    expect(status).toBe(0);
    expect(output).toContain('Creating arrows in');
    expect(output).toContain('(template full, http)');
    const options = await withOptions([
      'arrows',
      '--template',
      'full',
      '--transport',
      'http',
      '--no-install',
      '--no-git',
      '--yes',
    ]);
    expect(tree(join(cwd, 'arrows'))).toEqual(tree(join(options, 'arrows')));
  });

  it('cancels on Ctrl+C, writing nothing', async () => {
    const cwd = folder('terminal');
    const { status, output } = await runInPty([PUBLISHED], cwd, [
      ['Project name: (my-mcp-server) ', 'half-done\r'],
      [TERMINAL_TEMPLATE_PROMPT, '\u0003'],
    ]);
    expect(status).toBe(130);
    expect(output).toContain('Cancelled; nothing was written.');
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('with the answers piped, one per line', () => {
  it('takes the defaults for empty answers, and writes what the equivalent options write', async () => {
    const cwd = folder('piped');
    const result = await runCli([PUBLISHED], { cwd, input: '\n\n\nn\nn\n' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Project name: \(my-mcp-server\) \nTemplate:\n {2}1\) basic/);

    const options = await withOptions([
      'my-mcp-server',
      '--template',
      'basic',
      '--transport',
      'stdio',
      '--no-install',
      '--no-git',
    ]);
    expect(tree(join(cwd, 'my-mcp-server'))).toEqual(tree(join(options, 'my-mcp-server')));
  });

  it('asks again after an answer it cannot use', async () => {
    const cwd = folder('piped');
    const result = await runCli(['--no-install', '--no-git', PUBLISHED], {
      cwd,
      input: 'Weather Server\nweather\n6\nhttp\n\n',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'Project name: (my-mcp-server) Weather Server\n' +
        '  "Weather Server" is not a valid npm package name: it cannot contain capital letters\n' +
        'Project name: (my-mcp-server) weather\n',
    );
    expect(result.stdout).toContain(
      `${TEMPLATE_PROMPT}6\n  "6" is not one of the choices\n${TEMPLATE_PROMPT}http\n`,
    );

    const options = await withOptions([
      'weather',
      '--template',
      'http',
      '--auth',
      'none',
      '--no-install',
      '--no-git',
    ]);
    expect(tree(join(cwd, 'weather'))).toEqual(tree(join(options, 'weather')));
  });

  it('asks whether to protect the http template with OAuth and who signs people in, and writes what --auth oauth --idp external writes', async () => {
    const cwd = folder('piped');
    const result = await runCli(
      ['secure', '--template', 'http', '--no-install', '--no-git', PUBLISHED],
      {
        cwd,
        input: 'oauth\n\n',
      },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^Protect it with OAuth\?\n {2}1\) none +anyone who can reach the server may call it/,
    );
    expect(result.stdout).toMatch(
      /\nWho signs people in\?\n {2}1\) external +your own authorization server issues the tokens/,
    );
    expect(result.stdout).toContain(
      '  2) github    this server is the authorization server; people sign in with GitHub',
    );
    expect(result.stdout).toContain('(template http, http, OAuth)');

    const options = await withOptions([
      'secure',
      '--template',
      'http',
      '--auth',
      'oauth',
      '--idp',
      'external',
      '--no-install',
      '--no-git',
    ]);
    expect(tree(join(cwd, 'secure'))).toEqual(tree(join(options, 'secure')));
  });
});

it('offers its own authorization server with an identity provider when OAuth is chosen, and writes what --idp writes', async () => {
  const cwd = folder('piped-idp');
  const result = await runCli(
    ['secure', '--template', 'http', '--no-install', '--no-git', PUBLISHED],
    {
      cwd,
      input: 'oauth\nentra\n',
    },
  );
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toContain(
    '(template http, http, OAuth: its own authorization server, sign-in at Microsoft Entra ID)',
  );
  const options = await withOptions(['secure', '--idp', 'entra', '--no-install', '--no-git']);
  expect(tree(join(cwd, 'secure'))).toEqual(tree(join(options, 'secure')));
  expect(tree(join(cwd, 'secure'))['src/idp.ts']).toContain('upstreams.entra({');
});
