import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';

// The README's "install and run" command, minus the install (the test suite runs installed).
it('the README command starts the flagship example and answers its call', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- readme-run:start -->\s*```bash\n([\s\S]*?)\n```/.exec(readme)?.[1];
  expect(block).toMatch(/^npm install && /);
  const command = block!.replace(/^npm install && /, '');
  const stdout = execFileSync('bash', ['-c', command], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const messages = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(messages.map((m) => m.id)).toEqual([1, 2]);
  expect(messages[0].result.serverInfo).toEqual({ name: 'logistics', version: '0.1.0' });
  // The order the classic tutorial asks about.
  expect(messages[1].result.content[0].text).toMatch(
    /^Order ORDER-123456 \(SwiftShip SS246813579\) to Shanghai, CN: in_transit\n/,
  );
});

// The example's own README: its demo line, run verbatim, prints the text the README shows.
it("the example README's demo answers the tutorial's order as the README shows", () => {
  const readme = readFileSync(join(REPO_ROOT, 'examples/logistics/README.md'), 'utf8');
  const match =
    /<!-- logistics-demo:start -->\s*```bash\n([\s\S]*?)\n```\s*<!-- logistics-demo:end -->\s*```text\n([\s\S]*?)\n```/.exec(
      readme,
    );
  expect(match, 'the README has the demo block and its output').not.toBeNull();
  const [, command, shown] = match!;
  expect(command).toContain('ORDER-123456');
  const stdout = execFileSync('bash', ['-c', command], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(stdout.trimEnd()).toBe(shown);
});
