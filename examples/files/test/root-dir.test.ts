import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';
import { rootDirFromArgs } from '../src/root-dir.ts';

it.each([
  [[], {}, join(REPO_ROOT, 'examples/files/sample')],
  [['/srv/docs'], { INIT_CWD: '/home/me' }, '/srv/docs'],
  [['docs'], { INIT_CWD: '/home/me' }, '/home/me/docs'],
  [['../docs', '--http', '--port', '3000'], { INIT_CWD: '/home/me/work' }, '/home/me/docs'],
])('%j from %j serves %s', (args, env, dir) => {
  expect(rootDirFromArgs(args, env)).toBe(dir);
});

it.each([
  [['a', 'b'], 'one directory, please (got a, b)'],
  [['--verbose'], "Unknown option '--verbose'"],
])('%j is refused', (args, message) => {
  expect(() => rootDirFromArgs(args, {})).toThrow(message);
});
