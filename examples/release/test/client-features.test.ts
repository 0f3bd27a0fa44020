import { describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  OFFICIAL_CLIENTS,
  type OfficialClient,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { CHANGELOG } from '../src/changelog.ts';
import { collect, until } from './sdk.ts';

const connect = officialClientPerTest();
let client: OfficialClient | undefined;

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const BASE_TOOLS = [
  'publish_release',
  'summarize_changelog',
  'list_workspaces',
  'enable_admin_tools',
  'disable_admin_tools',
];
const toolNames = async () => (await client!.listTools()).tools.map((t) => t.name);

describe.each(OFFICIAL_CLIENTS)('release with %s over stdio', (kind) => {
  it.each(LEGACY_REVISIONS)(
    '%s: samples the client model and lists its roots',
    async (revision) => {
      const sampled: unknown[] = [];
      client = await connect(kind, revision, 'examples/release', {
        onSample: (params) => {
          sampled.push(params);
          return {
            role: 'assistant',
            model: 'test-model',
            content: { type: 'text', text: 'Signed, faster releases.' },
          };
        },
        onRoots: () => ({
          roots: [{ uri: 'file:///work/app', name: 'app' }, { uri: 'file:///work/lib' }],
        }),
      });

      expect(await client.callTool('summarize_changelog')).toEqual(
        text('Summary (by test-model): Signed, faster releases.'),
      );
      expect(sampled).toEqual([
        {
          systemPrompt: 'You write short, friendly release announcements.',
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: `Summarize in one sentence:\n\n${CHANGELOG}` },
            },
          ],
          maxTokens: 200,
        },
      ]);
      expect(await client.callTool('list_workspaces')).toEqual(
        text('2 workspace(s):\n- app: file:///work/app\n- lib: file:///work/lib'),
      );
      expect(checkServerLines(client.wire(), revision)).toEqual([]);
    },
  );

  it.each(LEGACY_REVISIONS)(
    '%s: adds and removes the admin tools at runtime, telling the client',
    async (revision) => {
      client = await connect(kind, revision, 'examples/release');
      const changes = collect(client, kind, 'notifications/tools/list_changed');
      expect(await toolNames()).toEqual(BASE_TOOLS);

      expect(await client.callTool('enable_admin_tools')).toEqual(
        text('Enabled admin tools: yank_release, rotate_signing_key.'),
      );
      await until(() => changes.length === 1, 'notifications/tools/list_changed');
      expect(await toolNames()).toEqual([...BASE_TOOLS, 'yank_release', 'rotate_signing_key']);
      expect(await client.callTool('yank_release', { version: '1.3.0' })).toEqual(
        text('Yanked 1.3.0: it is no longer offered for installation.'),
      );
      expect(await client.callTool('enable_admin_tools')).toEqual(
        text('Admin tools are already enabled: yank_release, rotate_signing_key.'),
      );

      expect(await client.callTool('disable_admin_tools')).toEqual(
        text('Disabled admin tools: yank_release, rotate_signing_key.'),
      );
      // One notification per tool removed.
      await until(() => changes.length === 3, 'two more notifications/tools/list_changed');
      expect(await toolNames()).toEqual(BASE_TOOLS);
      await expect(client.callTool('rotate_signing_key')).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Unknown tool: rotate_signing_key'),
      });
      expect(changes).toEqual([{}, {}, {}]);

      const fromServer = client
        .wire()
        .filter((r) => r.dir === 's2c')
        .map((r) => JSON.parse(r.line));
      expect(fromServer.filter((m) => m.method).map((m) => m.method)).toEqual(
        Array(3).fill('notifications/tools/list_changed'),
      );
      expect(checkServerLines(client.wire(), revision)).toEqual([]);
    },
  );
});
