import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, StartupError, Tool, Use, type McpFwServer } from '@mcp-fw/core';
import { connectTestClient, type TestClient } from '@mcp-fw/core/testing';

const ERAS = ['2024-11-05', '2025-11-25', '2026-07-28'] as const;

class Issues {
  @Tool({
    description: 'Closes an issue (bug report, ticket) in a repository',
    input: z.object({ owner: z.string(), repo: z.string(), issue_number: z.number().int() }),
    output: z.object({ closed: z.number() }),
  })
  close_issue({ issue_number }: { issue_number: number }) {
    return { closed: issue_number };
  }

  @Tool({
    description: 'Adds labels to an issue',
    input: z.object({ issue_number: z.number().int(), labels: z.array(z.string()) }),
  })
  addLabels({ labels }: { labels: string[] }) {
    if (labels.includes('boom')) throw new Error('label service down');
    return `labelled ${labels.join(',')}`;
  }

  @Tool({ description: 'Who you are signed in as', input: z.object({}) })
  whoami() {
    return 'octocat';
  }

  @Tool({
    description: 'Deletes a repository for good',
    input: z.object({ repo: z.string() }),
    scopes: ['repo:admin'],
  })
  delete_repo() {
    return 'deleted';
  }

  @Use(async (_ctx, next) => next())
  @Tool({ description: 'Transfers a repository, behind middleware', input: z.object({}) })
  transfer_repo() {
    return 'moved';
  }
}

class Forecasts {
  @Tool({ description: 'The weather forecast for a city', input: z.object({ city: z.string() }) })
  get_forecast({ city }: { city: string }) {
    return `${city}: sunny`;
  }
}

function app(): McpFwServer {
  const server = createServer({ name: 'app', version: '1.0.0', providers: [Issues] });
  server.mount(createServer({ name: 'weather', version: '1.0.0', providers: [Forecasts] }), {
    namespace: 'weather',
  });
  return server.searchTools({ alwaysVisible: ['whoami'], maxResults: 3 });
}

const names = async (c: TestClient) => (await c.listTools()).tools.map((t) => t.name).sort();
const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[])[0]?.text ?? '') as string;
const found = async (c: TestClient, query: string) =>
  // The text block carries the same JSON as structuredContent (which 2024-11-05 does not have).
  (
    JSON.parse(text(await c.callTool('search_tools', { query }))) as {
      tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
    }
  ).tools;

describe.each(ERAS)('tool search (%s)', (era) => {
  it('tools/list shows search_tools, call_tool, the always-visible and the guarded tools only', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    // delete_repo has scopes and transfer_repo middleware: behind call_tool they would skip them.
    expect(await names(c)).toEqual([
      'call_tool',
      'delete_repo',
      'search_tools',
      'transfer_repo',
      'whoami',
    ]);
    await c.close();
  });

  it('search_tools ranks own and mounted tools by BM25 and returns their input schemas', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const close = await found(c, 'close a bug report');
    expect(close[0]?.name).toBe('close_issue');
    expect(Object.keys(close[0]?.inputSchema.properties ?? {})).toEqual([
      'owner',
      'repo',
      'issue_number',
    ]);
    // camelCase names are split: "labels" finds addLabels.
    expect((await found(c, 'put labels on it'))[0]?.name).toBe('addLabels');
    expect((await found(c, 'weather in Paris'))[0]?.name).toBe('weather_get_forecast');
    // Guarded and always-visible tools are not in the index: they are listed.
    expect((await found(c, 'delete repository')).map((t) => t.name)).not.toContain('delete_repo');
    await c.close();
  });

  it('call_tool forwards with the tool’s own input and output validation', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const ok = await c.callTool('call_tool', {
      name: 'close_issue',
      arguments: { owner: 'o', repo: 'r', issue_number: 42 },
    });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse(text(ok))).toEqual({ closed: 42 });
    const mounted = await c.callTool('call_tool', {
      name: 'weather_get_forecast',
      arguments: { city: 'Oslo' },
    });
    expect(text(mounted)).toBe('Oslo: sunny');
    const bad = await c.callTool('call_tool', { name: 'close_issue', arguments: { owner: 'o' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/close_issue/);
    expect(text(bad)).toMatch(/repo|issue_number/);
    await c.close();
  });

  it('call_tool refuses unknown and listed tools, naming what to do instead', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const unknown = await c.callTool('call_tool', { name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/No tool "nope".*search_tools/);
    const guarded = await c.callTool('call_tool', {
      name: 'delete_repo',
      arguments: { repo: 'x' },
    });
    expect(guarded.isError).toBe(true);
    expect(text(guarded)).toMatch(/"delete_repo" is listed in tools\/list; call it directly/);
    await c.close();
  });

  it('a tool failing behind call_tool is masked like a direct call', async () => {
    const c = await connectTestClient(app(), { protocolVersion: era });
    const direct = createServer({ name: 'd', version: '1', providers: [Issues] });
    const d = await connectTestClient(direct, { protocolVersion: era });
    const viaSearch = await c.callTool('call_tool', {
      name: 'addLabels',
      arguments: { issue_number: 1, labels: ['boom'] },
    });
    const viaDirect = await d.callTool('addLabels', { issue_number: 1, labels: ['boom'] });
    expect(viaSearch.isError).toBe(true);
    expect(text(viaSearch)).toBe(text(viaDirect));
    await c.close();
    await d.close();
  });
});

describe('tool search follows the server', () => {
  it('a tool added at runtime is found by search_tools', async () => {
    const server = createServer({ name: 'app', version: '1.0.0' }).searchTools();
    const c = await connectTestClient(server, { protocolVersion: '2025-11-25' });
    expect(await found(c, 'forecast')).toEqual([]);
    server.add(new Forecasts());
    expect((await found(c, 'forecast'))[0]?.name).toBe('get_forecast');
    expect(await names(c)).toEqual(['call_tool', 'search_tools']);
    await c.close();
  });

  it('searchTools refuses an unknown always-visible tool and a bad maxResults at startup', () => {
    const server = createServer({ name: 'app', version: '1.0.0', providers: [Issues] });
    expect(() => server.searchTools({ alwaysVisible: ['whoam'] })).toThrow(StartupError);
    expect(() => server.searchTools({ alwaysVisible: ['whoam'] })).toThrow(/"whoam".*Fix:/);
    expect(() => server.searchTools({ maxResults: 0 })).toThrow(
      /maxResults must be an integer from 1 to 50/,
    );
  });
});
