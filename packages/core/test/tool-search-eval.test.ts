import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { largeSurface, surfaceProvider } from './support/large-surface.ts';

const { tasks } = JSON.parse(
  readFileSync(new URL('./fixtures/large-surface/tasks.json', import.meta.url), 'utf8'),
) as { tasks: { task: string; tool: string }[] };

describe('tool search over a 1,000-tool surface', () => {
  const tools = largeSurface();

  it('the surface has 1,000 distinct tools and every labelled task names one of them', () => {
    expect(tools).toHaveLength(1000);
    expect(new Set(tools.map((t) => t.name)).size).toBe(1000);
    expect(tasks.length).toBeGreaterThanOrEqual(50);
    const names = new Set(tools.map((t) => t.name));
    expect(tasks.filter((t) => !names.has(t.tool))).toEqual([]);
  });

  it('the right tool is in search top 5 for at least 90 % of the labelled tasks', async () => {
    const server = createServer({
      name: 'github',
      version: '1.0.0',
      providers: [surfaceProvider(tools)],
    }).searchTools({ maxResults: 5 });
    const c = await connectTestClient(server, { protocolVersion: '2026-07-28' });
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const misses: { task: string; tool: string; got: string[] }[] = [];
    for (const { task, tool } of tasks) {
      const result = await c.callTool('search_tools', { query: task });
      const got = (result.structuredContent as { tools: { name: string }[] }).tools.map(
        (t) => t.name,
      );
      if (!got.includes(tool)) misses.push({ task, tool, got });
    }
    const hitRate = (tasks.length - misses.length) / tasks.length;
    console.log(
      `tool search top-5 hit rate: ${(hitRate * 100).toFixed(1)} % (${tasks.length - misses.length}/${tasks.length})`,
    );
    if (misses.length > 0) console.log(JSON.stringify(misses, null, 1));
    expect(hitRate).toBeGreaterThanOrEqual(0.9);
    // And the hit is callable through call_tool, with its validation.
    const called = await c.callTool('call_tool', {
      name: 'issue_close',
      arguments: { owner: 'octo', repo: 'hello', issue_number: '42' },
    });
    // No output schema: the handler's object arrives as JSON text.
    expect(JSON.parse((called.content as { text: string }[])[0]?.text ?? '')).toEqual({
      tool: 'issue_close',
      input: { owner: 'octo', repo: 'hello', issue_number: '42' },
    });
    const refused = await c.callTool('call_tool', {
      name: 'issue_close',
      arguments: { owner: 'octo' },
    });
    expect(refused.isError).toBe(true);
    await c.close();
  });
});
