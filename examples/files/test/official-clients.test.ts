import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectOfficialClient,
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  type OfficialClient,
  type OfficialClientKind,
} from '../../../packages/core/test/support/official-clients.ts';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';
import { checkServerLines, type TapRecord } from '../../../packages/core/test/support/wire-log.ts';
import { patience } from '../../../test-support/patience.ts';

const SAMPLE = join(REPO_ROOT, 'examples/files/sample');
const TEMPLATE = 'file:///{+path}';
const TODO = 'file:///notes/todo.md';

// Each is answered with an error and reads nothing: malformed paths are -32602, paths that lead
// nowhere inside the root (including symlinks out of it) are -32002.
const REFUSED: [uri: string, code: number][] = [
  ['file:///../etc/passwd', -32602],
  ['file:///%2e%2e%2fetc%2fpasswd', -32602],
  ['file:///..%2F..%2Fetc%2Fpasswd', -32602],
  ['file:///notes/..%2f..%2fsecret.txt', -32602],
  ['file:///../secret.txt', -32602],
  ['file:////etc/passwd', -32602],
  ['file:///notes%2F%2Ftodo.md', -32602],
  ['file:///notes/todo.md%00.png', -32602],
  ['file:///%5C..%5Csecret.txt', -32602],
  ['file:///escape.txt', -32002],
  ['file:///outside/secret.txt', -32002],
  ['file:///notes/up/secret.txt', -32002],
  ['file:///missing.txt', -32002],
  ['file://localhost/etc/passwd', -32002],
];

/** Registers a notification handler through whichever SDK generation `raw` is. */
function onNotification(
  kind: OfficialClientKind,
  raw: any,
  method: string,
  handler: (params: any) => void,
): void {
  if (kind === '@modelcontextprotocol/client 2.x') {
    raw.setNotificationHandler(method, (n: any) => handler(n.params));
    return;
  }
  const schema =
    method === 'notifications/resources/updated'
      ? ResourceUpdatedNotificationSchema
      : ResourceListChangedNotificationSchema;
  raw.setNotificationHandler(schema, (n: any) => handler(n.params));
}

/** Polls until `done()` holds; notifications arrive whenever the file system says so. */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + patience(10_000);
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The server's answer to the last `method` request about `uri`, as it crossed the pipe. */
function answerTo(wire: readonly TapRecord[], method: string, uri: string): any {
  const messages = wire.map((r) => ({ dir: r.dir, message: JSON.parse(r.line) }));
  const request = messages.findLast(
    (m) => m.dir === 'c2s' && m.message.method === method && m.message.params?.uri === uri,
  );
  return messages.find(
    (m) => m.dir === 's2c' && !m.message.method && m.message.id === request?.message.id,
  )?.message;
}

describe.each(OFFICIAL_CLIENTS)('files with %s over stdio', (kind) => {
  describe.each(LEGACY_REVISIONS)('at %s', (revision) => {
    const secret = `TOP SECRET ${randomUUID()}`;
    const titled = revision >= '2025-06-18';
    let base: string;
    let root: string;
    let client: OfficialClient;
    const updated: string[] = [];
    let listChanges = 0;

    beforeAll(async () => {
      // base/root is served; base/secret.txt and base/outside/ sit beside it, reachable only
      // through the traversal attempts and symlinks below.
      base = mkdtempSync(join(tmpdir(), 'files-example-'));
      root = join(base, 'root');
      cpSync(SAMPLE, root, { recursive: true });
      writeFileSync(join(base, 'secret.txt'), secret);
      mkdirSync(join(base, 'outside'));
      writeFileSync(join(base, 'outside', 'secret.txt'), secret);
      symlinkSync('../secret.txt', join(root, 'escape.txt'));
      symlinkSync(join(base, 'outside'), join(root, 'outside'));
      symlinkSync('../..', join(root, 'notes', 'up'));
      client = await connectOfficialClient(kind, revision, 'examples/files', { args: [root] });
      onNotification(kind, client.raw, 'notifications/resources/updated', (p) =>
        updated.push(p.uri),
      );
      onNotification(kind, client.raw, 'notifications/resources/list_changed', () => listChanges++);
    });
    afterAll(async () => {
      await client?.close();
      rmSync(base, { recursive: true, force: true });
    });

    const size = (path: string) => statSync(join(root, path)).size;

    it('lists the root and every file below it, symlinks left out', async () => {
      expect(await client.raw.listResources()).toEqual({
        resources: [
          {
            uri: 'file:///',
            name: 'root',
            ...(titled ? { title: 'Served directory' } : {}),
            description:
              'The listing of the served directory, followed by the contents of its small files',
            mimeType: 'inode/directory',
          },
          {
            uri: 'file:///README.md',
            name: 'README.md',
            mimeType: 'text/markdown',
            size: size('README.md'),
          },
          {
            uri: 'file:///logo.png',
            name: 'logo.png',
            mimeType: 'image/png',
            size: size('logo.png'),
          },
          {
            uri: 'file:///notes/ideas.txt',
            name: 'notes/ideas.txt',
            mimeType: 'text/plain',
            size: size('notes/ideas.txt'),
          },
          {
            uri: TODO,
            name: 'notes/todo.md',
            mimeType: 'text/markdown',
            size: size('notes/todo.md'),
          },
        ],
      });
      expect(await client.raw.listResourceTemplates()).toEqual({
        resourceTemplates: [
          {
            uriTemplate: TEMPLATE,
            name: 'file',
            ...(titled ? { title: 'File or directory' } : {}),
            description:
              'A file below the served directory, by its relative path (a directory reads as its listing)',
          },
        ],
      });
    });

    it('reads text, binary and directories', async () => {
      const text = (path: string) => readFileSync(join(root, path), 'utf8');
      expect(await client.raw.readResource({ uri: TODO })).toEqual({
        contents: [{ uri: TODO, mimeType: 'text/markdown', text: text('notes/todo.md') }],
      });
      expect(await client.raw.readResource({ uri: 'file:///logo.png' })).toEqual({
        contents: [
          {
            uri: 'file:///logo.png',
            mimeType: 'image/png',
            blob: readFileSync(join(root, 'logo.png')).toString('base64'),
          },
        ],
      });
      expect(await client.raw.readResource({ uri: 'file:///notes' })).toEqual({
        contents: [
          { uri: 'file:///notes', mimeType: 'inode/directory', text: 'ideas.txt\ntodo.md' },
          { uri: 'file:///notes/ideas.txt', mimeType: 'text/plain', text: text('notes/ideas.txt') },
          { uri: TODO, mimeType: 'text/markdown', text: text('notes/todo.md') },
        ],
      });
      expect(await client.raw.readResource({ uri: 'file:///' })).toEqual({
        contents: [
          { uri: 'file:///', mimeType: 'inode/directory', text: 'README.md\nlogo.png\nnotes/' },
          { uri: 'file:///README.md', mimeType: 'text/markdown', text: text('README.md') },
          {
            uri: 'file:///logo.png',
            mimeType: 'image/png',
            blob: readFileSync(join(root, 'logo.png')).toString('base64'),
          },
        ],
      });
    });

    it('completes the template path from 2025-03-26 on, where the capability exists', async () => {
      // Every list is declared (a server may gain tools or prompts after a client connected).
      const lists = {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
      };
      if (revision === '2024-11-05') {
        expect(client.raw.getServerCapabilities()).toEqual(lists);
        return;
      }
      expect(client.raw.getServerCapabilities()).toEqual({ ...lists, completions: {} });
      const complete = (value: string) =>
        client.raw.complete({
          ref: { type: 'ref/resource', uri: TEMPLATE },
          argument: { name: 'path', value },
        });
      expect(await complete('notes/')).toEqual({
        completion: { values: ['notes/ideas.txt', 'notes/todo.md'], total: 2, hasMore: false },
      });
      expect(await complete('')).toEqual({
        completion: {
          values: ['README.md', 'logo.png', 'notes/ideas.txt', 'notes/todo.md'],
          total: 4,
          hasMore: false,
        },
      });
      expect(await complete('esc')).toEqual({
        completion: { values: [], total: 0, hasMore: false },
      });
    });

    it.each(REFUSED)('refuses %s with %i', async (uri, code) => {
      await expect(client.raw.readResource({ uri })).rejects.toThrow();
      // Read off the wire: SDK 2.x reports a legacy -32002 to its caller as -32602.
      const error = answerTo(client.wire(), 'resources/read', uri).error;
      expect(error.code).toBe(code);
      if (code === -32002) expect(error.data).toEqual({ uri });
      else expect(error.message).toMatch(/^Invalid params: the path /);
    });

    it('tells subscribers about changes until they unsubscribe, and everyone about new files', async () => {
      await client.raw.subscribeResource({ uri: TODO });
      writeFileSync(join(root, 'notes/todo.md'), '# To do\n\n- [x] Watch the directory\n');
      await waitFor(() => updated.length > 0, `notifications/resources/updated for ${TODO}`);
      // An editor's atomic save (a new file renamed over the old one), then a write to that file.
      writeFileSync(join(base, 'todo.tmp'), '# To do\n\n- [x] Survive atomic saves\n');
      const beforeSave = updated.length;
      renameSync(join(base, 'todo.tmp'), join(root, 'notes/todo.md'));
      await waitFor(
        () => updated.length > beforeSave,
        'notifications/resources/updated after an atomic save',
      );
      const beforeAppend = updated.length;
      appendFileSync(join(root, 'notes/todo.md'), '- [ ] And writes after them\n');
      await waitFor(
        () => updated.length > beforeAppend,
        'notifications/resources/updated after a write to the saved file',
      );
      expect(new Set(updated)).toEqual(new Set([TODO]));

      await client.raw.unsubscribeResource({ uri: TODO });
      writeFileSync(join(root, 'notes/todo.md'), '# To do\n\nNothing left.\n');
      // A new file changes the list; once that news is in, the change before it was seen too.
      const before = listChanges;
      writeFileSync(join(root, 'notes/new.md'), '# New\n');
      await waitFor(() => listChanges > before, 'notifications/resources/list_changed');

      const wire = client.wire();
      const unsubscribe = wire.find(
        (r) => r.dir === 'c2s' && JSON.parse(r.line).method === 'resources/unsubscribe',
      )!;
      const id = JSON.parse(unsubscribe.line).id;
      const answered = wire.findIndex(
        (r) => r.dir === 's2c' && JSON.parse(r.line).id === id && !JSON.parse(r.line).method,
      );
      expect(answered).toBeGreaterThan(0);
      const lateUpdates = wire
        .slice(answered)
        .filter(
          (r) => r.dir === 's2c' && JSON.parse(r.line).method === 'notifications/resources/updated',
        );
      expect(lateUpdates).toEqual([]);

      const { resources } = await client.raw.listResources();
      expect(resources.map((r: { uri: string }) => r.uri)).toEqual([
        'file:///',
        'file:///README.md',
        'file:///logo.png',
        'file:///notes/ideas.txt',
        'file:///notes/new.md',
        TODO,
      ]);
      expect(await client.raw.readResource({ uri: TODO })).toEqual({
        contents: [{ uri: TODO, mimeType: 'text/markdown', text: '# To do\n\nNothing left.\n' }],
      });
    });

    it('sent only schema-valid frames, none carrying anything from outside the root', () => {
      const wire = client.wire();
      expect(negotiatedVersion(wire)).toBe(revision);
      expect(checkServerLines(wire, revision)).toEqual([]);
      const leaked = [secret, Buffer.from(secret).toString('base64'), 'root:x:0:0'];
      expect(wire.filter((r) => r.dir === 's2c' && leaked.some((s) => r.line.includes(s)))).toEqual(
        [],
      );
    });
  });
});
