import { describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  OFFICIAL_CLIENTS,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { callWithProgress, collect, until } from './sdk.ts';

const WORKSPACE = 'examples/release';
// Elicitation exists from 2025-06-18.
const ELICITING = LEGACY_REVISIONS.filter((r) => r >= '2025-06-18');
const BEFORE_ELICITATION = LEGACY_REVISIONS.filter((r) => r < '2025-06-18');

const CONFIRMATION_FORM = {
  message: 'Publish version 1.4.0?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: { type: 'boolean', description: 'Publish now?' },
      notes: { type: 'string', description: 'Release notes to include' },
    },
    required: ['confirm'],
  },
};

const connect = officialClientPerTest();

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const failure = (t: string) => ({ content: [{ type: 'text', text: t }], isError: true });

describe.each(OFFICIAL_CLIENTS)('publish_release with %s over stdio', (kind) => {
  it.each(ELICITING)(
    '%s: confirmed, it reports progress and logs; declined, it publishes nothing',
    async (revision) => {
      const answers: unknown[] = [];
      const asked: unknown[] = [];
      const client = await connect(kind, revision, WORKSPACE, {
        // Each step's progress is sent as it starts; the official clients drop one that arrives
        // in the same read as the answer, which a client descheduled for a whole step (a loaded
        // machine: 50 ms steps failed once) sees.
        args: ['--step-ms=250'],
        onElicit: (params) => {
          asked.push(params);
          return answers.shift();
        },
      });
      const logs = collect(client, kind, 'notifications/message');
      await client.raw.setLoggingLevel('info');

      answers.push({ action: 'accept', content: { confirm: true, notes: 'Faster builds' } });
      const progress: unknown[] = [];
      const published = await callWithProgress(
        client,
        kind,
        'publish_release',
        { version: '1.4.0' },
        (p) => progress.push(p),
      );
      expect(published).toEqual(
        text(
          'Published 1.4.0 in 4 steps (tag, build, upload, announce).\nRelease notes: Faster builds',
        ),
      );
      expect(asked).toEqual([CONFIRMATION_FORM]);
      // Strictly increasing, each naming the step that started; the debug logs are filtered out.
      expect(progress).toEqual(
        ['tag', 'build', 'upload', 'announce'].map((step, done) => ({
          progress: done,
          total: 4,
          message: `${step} 1.4.0`,
        })),
      );
      await until(() => logs.length === 4, 'four log notifications');
      expect(logs).toEqual(
        ['tag', 'build', 'upload', 'announce'].map((step) => ({
          level: 'info',
          data: `1.4.0: ${step} done`,
        })),
      );

      answers.push({ action: 'decline' });
      expect(await client.callTool('publish_release', { version: '1.4.1' })).toEqual(
        text('Release 1.4.1 was not published: the user declined.'),
      );
      answers.push({ action: 'accept', content: { confirm: false } });
      expect(await client.callTool('publish_release', { version: '1.4.2' })).toEqual(
        text('Release 1.4.2 was not published: the user did not confirm.'),
      );
      await until(() => logs.length === 6, 'the notices of the refusals');
      expect(logs.slice(4)).toEqual([
        { level: 'notice', data: '1.4.1: not published, the user declined' },
        { level: 'notice', data: '1.4.2: not published, the user did not confirm' },
      ]);

      expect(checkServerLines(client.wire(), revision)).toEqual([]);
    },
  );

  it.each(BEFORE_ELICITATION)('%s: is an isError result naming the revision', async (revision) => {
    const client = await connect(kind, revision, WORKSPACE, {
      onElicit: () => ({ action: 'accept', content: { confirm: true } }),
    });
    expect(await client.callTool('publish_release', { version: '1.4.0' })).toEqual(
      failure(
        `ctx.elicit is not available in protocol revision ${revision}; it needs 2025-06-18 or later`,
      ),
    );
    expect(checkServerLines(client.wire(), revision)).toEqual([]);
  });

  it.each(ELICITING)(
    '%s: a client without the elicitation capability gets an isError naming it',
    async (revision) => {
      const client = await connect(kind, revision, WORKSPACE);
      // The capability it lacks is also named in _meta, for a proxy to refuse in its caller's era.
      expect(await client.callTool('publish_release', { version: '1.4.0' })).toEqual({
        ...failure(
          'ctx.elicit needs the client capability "elicitation", which this client (mcp-fw-interop) did not declare',
        ),
        _meta: { 'dev.mcp-fw/requiredCapabilities': { elicitation: {} } },
      });
      expect(checkServerLines(client.wire(), revision)).toEqual([]);
    },
  );

  it.each(ELICITING)(
    '%s: a client that never answers gets an isError after the timeout, and the server goes on',
    async (revision) => {
      const client = await connect(kind, revision, WORKSPACE, {
        args: ['--confirm-timeout-ms=300'],
        onElicit: () => new Promise(() => {}),
      });
      expect(await client.callTool('publish_release', { version: '1.4.0' })).toEqual(
        failure('the client did not answer elicitation/create within 300 ms'),
      );
      expect(await client.callTool('disable_admin_tools')).toEqual(
        text('Admin tools are not enabled.'),
      );

      const wire = client.wire();
      const fromServer = wire.filter((r) => r.dir === 's2c').map((r) => JSON.parse(r.line));
      const question = fromServer.find((m) => m.method === 'elicitation/create');
      // The server withdraws the question it gave up on.
      expect(fromServer.filter((m) => m.method === 'notifications/cancelled')).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: question.id, reason: 'timeout' },
        },
      ]);
      expect(checkServerLines(wire, revision)).toEqual([]);
    },
  );
});
