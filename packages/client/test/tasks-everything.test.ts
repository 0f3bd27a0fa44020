import { createRequire } from 'node:module';
import { connect, type TaskState } from '@mcp-fw/client';
import { describe, expect, it } from 'vitest';

// A task of another implementation: @modelcontextprotocol/server-everything (from npm, over
// stdio) runs simulate-research-query as a 2025-11-25 task with a status message per stage.

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

function statuses(seen: TaskState[]): string[] {
  return seen.map((task) => task.status).filter((s, i, all) => all[i - 1] !== s);
}

describe('tasks of another implementation', () => {
  it('callTool follows a 2025-11-25 task of @modelcontextprotocol/server-everything over stdio, its status messages reported', async () => {
    const client = await connect(
      { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      { probeTimeoutMs: 500 },
    );
    try {
      expect(client.protocolVersion).toBe('2025-11-25');
      const seen: TaskState[] = [];
      const result = await client.callTool(
        'simulate-research-query',
        { topic: 'tides' },
        { onTask: (task) => seen.push(task) },
      );
      expect(result.content[0].text).toContain('Research Report: tides');
      expect(statuses(seen)).toEqual(['working', 'completed']);
      expect(seen.filter((task) => task.status === 'completed')).toHaveLength(1);
      expect(seen.map((task) => task.statusMessage)).toContain('Gathering sources...');
    } finally {
      await client.close();
    }
  });
});
