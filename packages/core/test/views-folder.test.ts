import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, StartupError, Tool, View } from '@mcp-fw/core';
import { viewsIn } from '@mcp-fw/core/node';
import { connectTestClient } from '@mcp-fw/core/testing';

const PAGE = '<!doctype html><html><body>board v1</body></html>';
let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'views-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

class Orders {
  @Tool({ description: 'Shows the board', ui: 'ui://orders/board' })
  show() {
    return 'board shown';
  }
}

describe('views found in a folder (viewsIn)', () => {
  it('serves each bundled view with its options, and a read sees the file as it is now', async () => {
    const dir = folder({ 'board.html': PAGE, 'map.html': PAGE });
    const server = createServer({
      name: 'folder',
      version: '1',
      providers: [
        new Orders(),
        viewsIn(dir, {
          board: { uri: 'ui://orders/board', csp: { connectDomains: ['https://api.example.com'] } },
        }),
      ],
    });
    const client = await connectTestClient(server);
    const { resources } = (await client.rawRequest('resources/list')) as { resources: any[] };
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['ui://orders/board', 'text/html;profile=mcp-app'],
      ['ui://views/map', 'text/html;profile=mcp-app'],
    ]);
    writeFileSync(join(dir, 'board.html'), PAGE.replace('v1', 'v2'));
    const { contents } = await client.readResource('ui://orders/board');
    expect(contents[0]).toMatchObject({
      text: PAGE.replace('v1', 'v2'),
      _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] } } },
    });
    await client.close();
  });

  it('a bundled view that is not HTML stops the server at startup, naming the file’s view', () => {
    const dir = folder({ 'board.html': 'console.log("not a document")' });
    expect(() => createServer({ name: 'f', version: '1', providers: [viewsIn(dir)] })).toThrow(
      /views\.board: view ui:\/\/views\/board is not an HTML document/,
    );
  });

  it('options naming a view the folder lacks, or a missing folder, name the fix', () => {
    const dir = folder({ 'board.html': PAGE });
    expect(() => viewsIn(dir, { bord: {} })).toThrow(/has no bord\.html \(found: board\)/);
    expect(() => viewsIn(join(dir, 'nope'))).toThrow(StartupError);
    expect(() => viewsIn(join(dir, 'nope'))).toThrow(/run mcp-fw build/);
  });

  it('a view that fails on a later read (async, no longer a document) is an error naming it', async () => {
    let html = PAGE;
    class Late {
      @View('ui://late')
      async late() {
        return html;
      }
    }
    const client = await connectTestClient(
      createServer({ name: 'l', version: '1', providers: [Late], maskInternalErrors: false }),
    );
    expect((await client.readResource('ui://late')).contents[0]).toMatchObject({ text: PAGE });
    html = 'oops';
    await expect(client.readResource('ui://late')).rejects.toThrow(
      /ui:\/\/late is not an HTML document/,
    );
    await client.close();
  });
});
