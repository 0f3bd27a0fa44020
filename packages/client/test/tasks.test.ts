import { fileURLToPath } from 'node:url';
import { connect, type McpClient, type TaskState } from '@mcp-fw/client';
import { serveHttp } from '@mcp-fw/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceServer } from '../../../examples/conformance/src/server.ts';

// Tasks in both eras against the conformance example, whose task tools run as 2025-11-25 tasks
// (`params.task`) and as tasks of the 2026-07-28 extension: over HTTP (served here) and over
// stdio (its built program).

const CONFORMANCE = fileURLToPath(
  new URL('../../../examples/conformance/dist/main.js', import.meta.url),
);
const ERAS = ['2025-11-25', '2026-07-28'] as const;

let handle: Awaited<ReturnType<typeof serveHttp>>;
beforeAll(async () => {
  handle = await serveHttp(createConformanceServer(), { port: 0 });
});
afterAll(() => handle.close());

function statuses(seen: TaskState[]): string[] {
  return seen.map((task) => task.status).filter((s, i, all) => all[i - 1] !== s);
}

async function withClient<T>(
  protocolVersion: string,
  use: (client: McpClient) => Promise<T>,
  options: Parameters<typeof connect>[1] = {},
): Promise<T> {
  const client = await connect(handle.url, { protocolVersion, ...options });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe.each(ERAS)('tasks, %s over Streamable HTTP', (protocolVersion) => {
  it('callTool follows a task to its result, reporting each status', async () => {
    const seen: TaskState[] = [];
    const result = await withClient(protocolVersion, (client) =>
      client.callTool(
        'slow_compute',
        { seconds: 0.3, label: 'pi' },
        { onTask: (task) => seen.push(task) },
      ),
    );
    expect(result.content[0].text).toBe('Computed pi after 0.3s');
    // The result is the tool's, without the task's protocol tag.
    expect(JSON.stringify(result)).not.toContain('related-task');
    expect(statuses(seen)).toEqual(['working', 'completed']);
    expect(new Set(seen.map((task) => task.taskId)).size).toBe(1);
  });

  it("a task's questions are answered by the same elicitation handler", async () => {
    const asked: string[] = [];
    const result = await withClient(
      protocolVersion,
      (client) => client.callTool('confirm_delete', { filename: 'a.txt' }),
      {
        handlers: {
          elicitation: (request) => {
            asked.push(request.message);
            return { action: 'accept', content: { confirm: true } };
          },
        },
      },
    );
    expect(result.content[0].text).toBe('Deleted a.txt');
    expect(asked).toEqual(['Delete a.txt?']);
  });

  it('a tool error inside a task comes back as the isError result', async () => {
    const result = await withClient(protocolVersion, (client) =>
      client.callTool('failing_job', {}),
    );
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('The job failed: the input data was rejected');
  });

  it('aborting the call cancels the task on the server (tasks/cancel)', async () => {
    await withClient(protocolVersion, async (client) => {
      const controller = new AbortController();
      let taskId: string | undefined;
      const call = client.callTool(
        'slow_compute',
        { seconds: 30 },
        {
          signal: controller.signal,
          onTask: (task) => {
            taskId = task.taskId;
            controller.abort(new Error('user gave up'));
          },
        },
      );
      await expect(call).rejects.toThrow('user gave up');
      expect(taskId).toBeDefined();
      // The cancel is on its way when the call rejects; the server's record shows it landed.
      let status = '';
      for (let i = 0; i < 50 && status !== 'cancelled'; i++) {
        const task = await client.request<{ status: string }>('tasks/get', { taskId });
        status = task.status;
        if (status !== 'cancelled') await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe('cancelled');
    });
  });

  it('task: false runs an optional-task tool in its request', async () => {
    const seen: TaskState[] = [];
    const result = await withClient(protocolVersion, (client) =>
      client.callTool(
        'slow_compute',
        { seconds: 0 },
        { task: false, onTask: (task) => seen.push(task) },
      ),
    );
    expect(result.content[0].text).toBe('Computed result after 0s');
    expect(seen).toEqual([]);
  });
});

describe.each(ERAS)('tasks, %s over stdio', (protocolVersion) => {
  it('callTool follows a task of the built conformance server to its result', async () => {
    const client = await connect(
      { command: process.execPath, args: [CONFORMANCE] },
      { protocolVersion },
    );
    try {
      const seen: TaskState[] = [];
      const result = await client.callTool(
        'slow_compute',
        { seconds: 0.2, label: 'e' },
        { onTask: (task) => seen.push(task) },
      );
      expect(result.content[0].text).toBe('Computed e after 0.2s');
      expect(statuses(seen)).toEqual(['working', 'completed']);
    } finally {
      await client.close();
    }
  });
});
