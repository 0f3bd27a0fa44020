import { readFileSync } from 'node:fs';
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

const VIEW_SERVER = `import { createServer } from '@mcp-fw/core';
import { viewsIn } from '@mcp-fw/core/node';
import { Greeter } from './greeter.js';

export const server = createServer({
  name: 'greeter',
  version: '1.0.0',
  providers: [new Greeter(), viewsIn(new URL('./views/', import.meta.url))],
});
`;

it.each([
  '@modelcontextprotocol/sdk 1.x (2025-11-25)',
  '@modelcontextprotocol/client 2.x auto (2026-07-28)',
] as const)(
  'mcp-fw dev bundles the views at start and rebuilds a view on save, telling the client resources/list_changed and resources/updated of its ui:// URI (%s)',
  async (kind) => {
    const project = fixtureProject('greeter');
    cleanups.push(() => project.remove());
    project.write('views/hello/index.html', page('first'));
    project.write('src/server.ts', VIEW_SERVER);
    const client = await connectDevClient(kind, project.dir, ['src/server.ts']);
    cleanups.push(() => client.close());
    const built = project.path('dist/views/hello.html');
    expect(readFileSync(built, 'utf8')).toContain('<p>first</p>');
    await client.subscribe('ui://views/hello');

    project.write('views/hello/index.html', page('second'));
    await until(
      () => readFileSync(built, 'utf8').includes('<p>second</p>'),
      'the view is rebuilt into dist/views/hello.html',
    );
    const updated = () =>
      client
        .wire()
        .filter(
          (r) =>
            r.dir === 's2c' &&
            r.line.includes('notifications/resources/updated') &&
            r.line.includes('ui://views/hello'),
        );
    await until(() => updated().length > 0, 'the client is told resources/updated of the view');
    expect(updated()).toHaveLength(1);
    // Legacy sessions hear list changes unsolicited; the 2026-07-28 client listens for tools only.
    const listChanged = client
      .wire()
      .filter((r) => r.dir === 's2c' && r.line.includes('notifications/resources/list_changed'));
    expect(listChanged).toHaveLength(kind.includes('2025-11-25') ? 1 : 0);
    expect(await client.toolNames()).toContain('greet');
  },
);
