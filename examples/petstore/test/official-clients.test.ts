import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { listeningUrl } from '../../../test-support/listening-url.ts';

// The example as users start it (`npm start -w examples/petstore`), in both of its modes: the
// classes `mcp-fw openapi` generated into src/api (the default), and fromOpenAPI reading
// petstore.yaml at runtime (`--runtime`), each calling the small Petstore API the example starts
// on loopback. Every operation through both official clients, in every legacy revision over
// stdio and at 2026-07-28 over HTTP.
const connect = officialClientPerTest();
const REX = { id: 1, name: 'Rex', tag: 'dog' };

const MODES = [
  {
    mode: 'generated classes',
    args: [] as string[],
    // The generated get_pet tool stays; src/api/pets.ts adds the template as an edit.
    tools: ['list_pets', 'add_pet', 'get_pet', 'delete_pet'],
    deleted: 'Done: the API answered with no body.',
  },
  {
    mode: 'runtime',
    args: ['--runtime'],
    tools: ['list_pets', 'add_pet', 'delete_pet'],
    deleted: 'HTTP 204 (no body)',
  },
];

// Each revision once per mode, alternating the two clients (each then meets both modes and two
// revisions): the full matrix doubled this file's time without reaching a new code path.
const STDIO_CASES = MODES.flatMap((m) =>
  LEGACY_REVISIONS.map((revision, i) => ({
    ...m,
    revision,
    kind: OFFICIAL_CLIENTS[i % OFFICIAL_CLIENTS.length] as (typeof OFFICIAL_CLIENTS)[number],
  })),
);

describe('petstore over stdio', () => {
  it.each(STDIO_CASES)(
    'every Petstore operation is callable end to end ($mode) at $revision with $kind; every server message is schema-valid',
    async ({ kind, revision, args, tools: names, deleted }) => {
      const client = await connect(kind, revision, 'examples/petstore', { args });
      const structured = revision >= '2025-06-18';

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(names);
      const { resourceTemplates } = await client.raw.listResourceTemplates();
      expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
        'openapi://get_pet/{id}',
      ]);

      const dogs = await client.callTool('list_pets', { tags: ['dog'], limit: 5 });
      expect(dogs.isError).toBeFalsy();
      expect(JSON.parse(dogs.content[0].text)).toEqual({ result: [REX] });
      expect(dogs.structuredContent).toEqual(structured ? { result: [REX] } : undefined);

      const added = await client.callTool('add_pet', { name: 'Kit', tag: 'cat' });
      expect(JSON.parse(added.content[0].text)).toEqual({ id: 3, name: 'Kit', tag: 'cat' });

      const kit = await client.raw.readResource({ uri: 'openapi://get_pet/3' });
      expect(kit.contents[0].mimeType).toBe('application/json');
      expect(JSON.parse(kit.contents[0].text)).toEqual({ id: 3, name: 'Kit', tag: 'cat' });

      if (names.includes('get_pet')) {
        const tool = await client.callTool('get_pet', { id: 3 });
        expect(JSON.parse(tool.content[0].text)).toEqual({ id: 3, name: 'Kit', tag: 'cat' });
      }

      const gone = await client.callTool('delete_pet', { id: 3 });
      expect(gone).toMatchObject({ content: [{ type: 'text', text: deleted }] });
      const again = await client.callTool('delete_pet', { id: 3 });
      expect(again.isError).toBe(true);
      expect(again.content[0].text).toContain('HTTP 404');
      expect(again.content[0].text).toContain('no pet 3');

      const wire = client.wire();
      expect(negotiatedVersion(wire)).toBe(revision);
      expect(checkServerLines(wire, revision)).toEqual([]);
    },
  );
});

let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill();
  child = undefined;
});

describe.each(MODES)('petstore ($mode) over Streamable HTTP', ({ args }) => {
  it('every Petstore operation is callable end to end at 2026-07-28 with the official client 2.x', async () => {
    // Port 0: the server picks a free port and says which (no race with other test files).
    child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../dist/main.js'), ...args, '--http', '--port', '0'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const url = new URL(await listeningUrl(child));
    const client = new Client(
      { name: 'petstore-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' as const } },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const dogs = await client.callTool({ name: 'list_pets', arguments: { tags: ['dog'] } });
      expect(dogs.structuredContent).toEqual({ result: [REX] });
      const added = await client.callTool({ name: 'add_pet', arguments: { name: 'Kit' } });
      expect(added.structuredContent).toEqual({ id: 3, name: 'Kit' });
      const kit = await client.readResource({ uri: 'openapi://get_pet/3' });
      expect(JSON.parse((kit.contents[0] as { text: string }).text)).toEqual({
        id: 3,
        name: 'Kit',
      });
      const gone = await client.callTool({ name: 'delete_pet', arguments: { id: 3 } });
      expect(gone.isError).toBeFalsy();
      const missing = await client.callTool({ name: 'delete_pet', arguments: { id: 3 } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
