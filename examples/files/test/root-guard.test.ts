import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, pathProblem, resolveInside } from '../src/root-guard.ts';

describe('pathProblem', () => {
  it.each([
    ['notes/todo.md', undefined],
    ['notes/', undefined],
    ['a..b/c.d..', undefined],
    ['%2e%2e%2fetc', undefined], // literal name: the URI template already decoded once, never again
    ['', 'the path is empty'],
    ['x'.repeat(4097), 'the path is longer than 4096 characters'],
    ['notes\0.md', 'the path contains a NUL byte'],
    ['..\\etc\\passwd', 'the path contains a backslash'],
    ['/etc/passwd', 'the path must be relative to the served directory'],
    ['C:/Windows/win.ini', 'the path must be relative to the served directory'],
    ['notes//todo.md', 'the path has an empty segment'],
    ['notes/todo.md//', 'the path has an empty segment'],
    ['..', 'the path may not contain "." or ".." segments'],
    ['../etc/passwd', 'the path may not contain "." or ".." segments'],
    ['notes/../../etc/passwd', 'the path may not contain "." or ".." segments'],
    ['./notes/todo.md', 'the path may not contain "." or ".." segments'],
    ['notes/..', 'the path may not contain "." or ".." segments'],
  ])('%j → %j', (path, problem) => {
    expect(pathProblem(path)).toBe(problem);
  });
});

describe('isInside', () => {
  it.each([
    ['/srv/root', '/srv/root', true],
    ['/srv/root', '/srv/root/a/b', true],
    ['/srv/root', '/srv/rootkit/a', false],
    ['/srv/root', '/srv', false],
    ['/', '/etc/passwd', true],
  ])('%s contains %s: %s', (root, real, inside) => {
    expect(isInside(root, real)).toBe(inside);
  });
});

describe('resolveInside', () => {
  let base: string;
  let root: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'files-guard-')));
    root = join(base, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(root, 'a.txt'), 'a');
    writeFileSync(join(root, 'sub', 'b.txt'), 'b');
    writeFileSync(join(base, 'secret.txt'), 'secret');
    writeFileSync(join(base, 'outside', 'c.txt'), 'c');
    symlinkSync('a.txt', join(root, 'alias.txt'));
    symlinkSync('..', join(root, 'sub', 'up'));
    symlinkSync('../secret.txt', join(root, 'escape.txt'));
    symlinkSync(join(base, 'secret.txt'), join(root, 'escape-absolute.txt'));
    symlinkSync('../outside', join(root, 'escape-dir'));
    symlinkSync('loop', join(root, 'loop'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('resolves files and directories inside the root to their real paths', async () => {
    expect(await resolveInside(root, 'a.txt')).toEqual({
      kind: 'inside',
      realPath: join(root, 'a.txt'),
    });
    expect(await resolveInside(root, 'sub/b.txt')).toEqual({
      kind: 'inside',
      realPath: join(root, 'sub', 'b.txt'),
    });
    expect(await resolveInside(root, 'sub/')).toEqual({
      kind: 'inside',
      realPath: join(root, 'sub'),
    });
  });

  it('follows symlinks that stay inside the root', async () => {
    expect(await resolveInside(root, 'alias.txt')).toEqual({
      kind: 'inside',
      realPath: join(root, 'a.txt'),
    });
    expect(await resolveInside(root, 'sub/up/a.txt')).toEqual({
      kind: 'inside',
      realPath: join(root, 'a.txt'),
    });
  });

  it.each([
    'escape.txt',
    'escape-absolute.txt',
    'escape-dir',
    'escape-dir/c.txt',
    'sub/up/escape.txt',
  ])('reports the symlink escape %s as missing', async (path) => {
    expect(await resolveInside(root, path)).toEqual({ kind: 'missing' });
  });

  it.each(['nope.txt', 'sub/nope/b.txt', 'a.txt/', 'loop'])(
    'reports %s as missing',
    async (path) => {
      expect(await resolveInside(root, path)).toEqual({ kind: 'missing' });
    },
  );

  it.each([
    ['../secret.txt', 'the path may not contain "." or ".." segments'],
    ['sub/../../secret.txt', 'the path may not contain "." or ".." segments'],
    ['/etc/passwd', 'the path must be relative to the served directory'],
    ['a.txt\0.png', 'the path contains a NUL byte'],
  ])('refuses %j without touching the file system', async (path, reason) => {
    expect(await resolveInside(root, path)).toEqual({ kind: 'invalid', reason });
  });
});
