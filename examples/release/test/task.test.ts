import { describe, expect, it } from 'vitest';
import { connectTestClient } from '@mcp-fw/core/testing';
import { createReleaseServer } from '../src/server.js';
import type { ReleasePipeline } from '../src/pipeline.js';

// Issue #22: publish_release as a task, in both eras: the confirmation asked halfway travels
// through the task, and cancelling the task stops the pipeline between steps.

const instant: ReleasePipeline = { run: async () => {} };

describe.each(['2025-11-25', '2026-07-28'])('publish_release as a task (%s)', (protocolVersion) => {
  it('asks for confirmation through the task, then publishes', async () => {
    const asked: unknown[] = [];
    const client = await connectTestClient(
      createReleaseServer({ pipeline: instant, confirmTimeoutMs: 60_000 }),
      {
        protocolVersion,
        capabilities: { elicitation: {} },
        handlers: {
          'elicitation/create': (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { confirm: true, notes: 'Signed builds' } };
          },
        },
      },
    );
    const task = await client.callToolAsTask('publish_release', { version: '1.5.0' });
    expect(task.taskId).toBeDefined();
    expect(task).toMatchObject({
      status: 'completed',
      result: {
        content: [
          {
            type: 'text',
            text: 'Published 1.5.0 in 4 steps (tag, build, upload, announce).\nRelease notes: Signed builds',
          },
        ],
      },
    });
    expect(asked).toEqual(['Publish version 1.5.0?']);
    await client.close();
  });
});
