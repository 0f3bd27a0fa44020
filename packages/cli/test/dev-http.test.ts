import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningUrl, startCli } from './support/cli-process.ts';
import { FIXTURES } from './support/paths.ts';
import { fixtureProject } from './support/temp-project.ts';
import { until } from './support/until.ts';

const NEXT = readFileSync(join(FIXTURES, 'greeter-next/greeter.ts'), 'utf8');
const INFO = { name: 'mcp-fw-dev-http-test', version: '1.0.0' };

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function devHttp(edit?: (project: ReturnType<typeof fixtureProject>) => void) {
  const project = fixtureProject('greeter');
  cleanups.push(() => project.remove());
  edit?.(project);
  const { child, stderr } = startCli(
    ['dev', 'src/server.ts', '--http', '--port', '0'],
    project.dir,
  );
  cleanups.push(
    () =>
      new Promise((resolve) =>
        child.exitCode === null ? (child.once('exit', resolve), child.kill()) : resolve(null),
      ),
  );
  return { project, stderr, url: new URL(await listeningUrl(stderr, child)) };
}

const text = (result: any) => result.content.map((c: any) => c.text).join('');

describe('mcp-fw dev --http', () => {
  it('keeps a Streamable HTTP session (SDK 1.x, 2025-11-25) across a reload', async () => {
    const { project, url } = await devHttp();
    const transport = new HttpV1(url);
    const client = new ClientV1(INFO, { capabilities: {} });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(transport);
    cleanups.push(() => client.close());
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe(
      'Hello, Ada!',
    );

    project.write('src/greeter.ts', NEXT);
    await until(() => changes === 1, 'tools/list_changed arrives on the session stream');
    expect(transport.sessionId).toBe(sessionId);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'greet',
      'farewell',
      'hold',
    ]);
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe(
      'Hi, Ada!',
    );
    expect(text(await client.callTool({ name: 'farewell', arguments: { name: 'Ada' } }))).toBe(
      'Goodbye, Ada',
    );
  });

  it('keeps a 2026-07-28 listen stream (client 2.x auto) across a reload', async () => {
    const { project, url } = await devHttp();
    const client = new ClientV2(INFO, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
    await client.connect(new HttpV2(url));
    cleanups.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const subscription = await client.listen({ toolsListChanged: true });
    cleanups.push(() => subscription.close());
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe(
      'Hello, Ada!',
    );

    project.write('src/greeter.ts', NEXT);
    await until(() => changes === 1, 'tools/list_changed arrives on the listen stream');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'greet',
      'farewell',
      'hold',
    ]);
    expect(text(await client.callTool({ name: 'farewell', arguments: { name: 'Ada' } }))).toBe(
      'Goodbye, Ada',
    );
  });

  it('masks an internal error as a served HTTP server does; the real message is on stderr', async () => {
    const { url, stderr } = await devHttp((project) =>
      project.write(
        'src/greeter.ts',
        project
          .read('src/greeter.ts')
          .replace(
            "  @Tool('Greets someone')",
            "  @Tool('Fails')\n  leak(): string {\n    throw new Error('database password is hunter2 at db.internal');\n  }\n\n  @Tool('Greets someone')",
          ),
      ),
    );
    const client = new ClientV1(INFO, { capabilities: {} });
    await client.connect(new HttpV1(url));
    cleanups.push(() => client.close());
    const answer = text(await client.callTool({ name: 'leak', arguments: {} }));
    expect(answer).toMatch(
      /^Internal error \(ref [0-9a-f]{12}\); the server's log has the details$/,
    );
    await until(
      () => stderr().includes('database password is hunter2 at db.internal'),
      'the real message on stderr',
    );
  });
});
