import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { checkTaskMessage } from './support/ext-tasks-schema.ts';

// Issue #22: the in-memory test client drives tasks in both eras (callToolAsTask), answering a
// question asked halfway; tasks belong to their connection when nobody is authenticated.

class Releases {
  @Tool({
    description: 'Ships a release after asking for approval',
    input: z.object({ version: z.string() }),
    task: { mode: 'required', pollIntervalMs: 1000 },
  })
  async ship({ version }: { version: string }, ctx: Context) {
    const ok = await ctx.elicit(`Ship ${version}?`, z.object({ confirm: z.boolean() }));
    return ok.action === 'accept' && ok.content.confirm ? `shipped ${version}` : 'not shipped';
  }

  @Tool({ description: 'Takes longer than the server timeout', task: 'optional' })
  async slow() {
    await new Promise((r) => setTimeout(r, 50));
    return 'finished';
  }

  @Tool({ description: 'Answers at once' })
  ping() {
    return 'pong';
  }
}

const server = (timeoutMs?: number) =>
  createServer({ name: 'rel', version: '1.0.0', providers: [Releases], limits: { timeoutMs } });
const approve = { 'elicitation/create': () => ({ action: 'accept', content: { confirm: true } }) };

describe('connectTestClient: callToolAsTask', () => {
  it.each(['2026-07-28', '2025-11-25'])(
    'follows a task with an elicitation halfway to its result (%s)',
    async (protocolVersion) => {
      const client = await connectTestClient(server(), {
        protocolVersion,
        capabilities: { elicitation: {} },
        handlers: approve,
      });
      const task = await client.callToolAsTask('ship', { version: '4.2' });
      expect(task).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'shipped 4.2' }] },
      });
      // The question surfaced through the task (2026-07-28 shows each status it polled).
      if (protocolVersion === '2026-07-28') {
        expect(task.seen).toContain('input_required');
        expect(task.seen.at(-1)).toBe('completed');
      }
      await client.close();
    },
  );

  it('2026-07-28: a task is not found from another connection; the wire validates against the extension schema', async () => {
    const shared = server();
    const owner = await connectTestClient(shared, {
      protocolVersion: '2026-07-28',
      capabilities: { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
    });
    const other = await connectTestClient(shared, {
      protocolVersion: '2026-07-28',
      capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    });
    const created = await owner.request('tools/call', {
      name: 'ship',
      arguments: { version: '1' },
    });
    expect(checkTaskMessage('CreateTaskResult', created)).toEqual([]);
    await expect(other.request('tasks/get', { taskId: created.taskId })).rejects.toMatchObject({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    const got = await owner.request('tasks/get', { taskId: created.taskId });
    expect(checkTaskMessage('GetTaskResult', got)).toEqual([]);
    expect((await owner.callToolAsTask('ping')).result).toMatchObject({
      content: [{ text: 'pong' }],
    });
    await owner.close();
    await other.close();
  });

  it.each(['2026-07-28', '2025-11-25'])(
    "a task's handler lives as long as the task, not the server's call timeout (%s)",
    async (protocolVersion) => {
      const client = await connectTestClient(server(1), { protocolVersion });
      // In its request the call times out after 1 ms; as a task it runs to its end.
      expect(await client.callTool('slow')).toMatchObject({ isError: true });
      expect(await client.callToolAsTask('slow')).toMatchObject({
        status: 'completed',
        result: { content: [{ text: 'finished' }] },
      });
      await client.close();
    },
  );
});
