import { existsSync, readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { connectDevClient } from './support/dev-clients.ts';
import { fixtureProject } from './support/temp-project.ts';
import { until } from './support/until.ts';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const page = (text: string) => `<!doctype html><html><body><p>${text}</p></body></html>`;

it('mcp-fw dev bundles the views at start and rebuilds a view on save, telling the connected client resources/list_changed', async () => {
  const project = fixtureProject('greeter');
  cleanups.push(() => project.remove());
  project.write('views/hello/index.html', page('first'));
  const client = await connectDevClient('@modelcontextprotocol/sdk 1.x (2025-11-25)', project.dir, [
    'src/server.ts',
  ]);
  cleanups.push(() => client.close());
  const built = project.path('dist/views/hello.html');
  expect(existsSync(built)).toBe(true);
  expect(readFileSync(built, 'utf8')).toContain('<p>first</p>');

  project.write('views/hello/index.html', page('second'));
  await until(
    () => readFileSync(built, 'utf8').includes('<p>second</p>'),
    'the view is rebuilt into dist/views/hello.html',
  );
  await until(
    () =>
      client
        .wire()
        .some((r) => r.dir === 's2c' && r.line.includes('notifications/resources/list_changed')),
    'the client is told resources/list_changed',
  );
  expect(await client.toolNames()).toContain('greet');
});
