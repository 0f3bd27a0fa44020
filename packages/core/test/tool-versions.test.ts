import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, StartupError, Tool } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { compareVersions } from '../src/registry/tool-versions.ts';

class IssuesV1 {
  @Tool({
    name: 'search_issues',
    version: '1',
    description: 'Searches issues by text',
    input: z.object({ q: z.string() }),
    deprecated: { message: 'Version 2 filters by state.', sunset: '2027-01-31' },
  })
  searchV1({ q }: { q: string }) {
    return `v1: ${q}`;
  }
}

class IssuesV2 {
  @Tool({
    name: 'search_issues',
    version: '2',
    description: 'Searches issues by text and state',
    input: z.object({ q: z.string(), state: z.enum(['open', 'closed']) }),
  })
  searchV2({ q, state }: { q: string; state: string }) {
    return `v2: ${q} (${state})`;
  }

  @Tool({ description: 'Lists labels', input: z.object({}) })
  labels() {
    return 'bug, docs';
  }

  @Tool({
    description: 'Closes an issue',
    input: z.object({ id: z.number() }),
    deprecated: { use: 'update_issue' },
  })
  close_issue() {
    return 'closed';
  }
}

const server = () =>
  createServer({ name: 'issues', version: '1.0.0', providers: [IssuesV1, IssuesV2] });

describe('tool versions', () => {
  it('two versions of one tool are served side by side: clients list the newest, and calls reach it', async () => {
    for (const era of ['2024-11-05', '2025-11-25', '2026-07-28']) {
      const c = await connectTestClient(server(), { protocolVersion: era });
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['close_issue', 'labels', 'search_issues']);
      const search = tools.find((t) => t.name === 'search_issues');
      expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(['q', 'state']);
      // _meta reaches clients from 2025-06-18 on.
      if (era !== '2024-11-05') expect(search?._meta).toEqual({ version: '2' });
      const result = await c.callTool('search_issues', { q: 'crash', state: 'open' });
      expect(result.content).toEqual([{ type: 'text', text: 'v2: crash (open)' }]);
      await c.close();
    }
  });

  it("a projection per endpoint: filter({ exclude: { versions: ['2'] } }) serves version 1 and the unversioned tools", async () => {
    const v1 = server().filter({ exclude: { versions: ['2'] } });
    const c = await connectTestClient(v1, { protocolVersion: '2025-11-25' });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['close_issue', 'labels', 'search_issues']);
    const search = tools.find((t) => t.name === 'search_issues');
    expect(search?._meta).toMatchObject({ version: '1' });
    expect((await c.callTool('search_issues', { q: 'crash' })).content).toEqual([
      { type: 'text', text: 'v1: crash' },
    ]);
    await c.close();
  });

  it('deprecation metadata: _meta.deprecated says why, until when and what instead, and the description says so', async () => {
    const c = await connectTestClient(server().filter({ exclude: { versions: ['2'] } }), {
      protocolVersion: '2026-07-28',
    });
    const { tools } = await c.listTools();
    const search = tools.find((t) => t.name === 'search_issues');
    expect(search?._meta).toEqual({
      version: '1',
      deprecated: { message: 'Version 2 filters by state.', sunset: '2027-01-31' },
    });
    expect(search?.description).toBe(
      'Deprecated: Version 2 filters by state. Removed after 2027-01-31. Searches issues by text',
    );
    const close = tools.find((t) => t.name === 'close_issue');
    expect(close?._meta).toEqual({ deprecated: { use: 'update_issue' } });
    expect(close?.description).toBe('Deprecated: Use update_issue instead. Closes an issue');
    await c.close();
  });

  it('search indexes one version of each tool, the one served', async () => {
    const c = await connectTestClient(server().searchTools(), { protocolVersion: '2025-11-25' });
    const found = await c.callTool('search_tools', { query: 'search issues', limit: 5 });
    const names = (
      found.structuredContent as { tools: { name: string; inputSchema: { properties: object } }[] }
    ).tools;
    expect(names.filter((t) => t.name === 'search_issues')).toHaveLength(1);
    expect(
      Object.keys(names.find((t) => t.name === 'search_issues')?.inputSchema.properties ?? {}),
    ).toEqual(['q', 'state']);
    await c.close();
  });

  it('the same name and version twice, or a version beside an unversioned tool of the name, is a duplicate; a bad version or sunset fails at startup naming the fix', () => {
    class Again {
      @Tool({ name: 'search_issues', version: '2', description: 'Again', input: z.object({}) })
      again() {
        return '';
      }
    }
    expect(() => createServer({ name: 'x', version: '1', providers: [IssuesV2, Again] })).toThrow(
      /Duplicate tool name "search_issues" version "2"/,
    );
    class Unversioned {
      @Tool({ name: 'search_issues', description: 'No version', input: z.object({}) })
      plain() {
        return '';
      }
    }
    expect(() =>
      createServer({ name: 'x', version: '1', providers: [IssuesV2, Unversioned] }),
    ).toThrow(/Duplicate tool name "search_issues": IssuesV2\.searchV2 and Unversioned\.plain/);
    class BadVersion {
      @Tool({ version: 'two words', description: 'Bad', input: z.object({}) })
      bad() {
        return '';
      }
    }
    expect(() => createServer({ name: 'x', version: '1', providers: [BadVersion] })).toThrow(
      StartupError,
    );
    class BadSunset {
      @Tool({ deprecated: { sunset: 'soon' }, description: 'Bad', input: z.object({}) })
      bad() {
        return '';
      }
    }
    expect(() => createServer({ name: 'x', version: '1', providers: [BadSunset] })).toThrow(
      /deprecated\.sunset must be an ISO 8601 date \(got "soon"\)\. Fix: /,
    );
  });

  it('versions compare as people read them: 1.10 after 1.9, any version after none', () => {
    const sorted = ['1.10', '2', '1.9', '1.9.1', '1.9.0-beta'].sort(compareVersions);
    expect(sorted).toEqual(['1.9', '1.9.0-beta', '1.9.1', '1.10', '2']);
    expect(compareVersions(undefined, '0')).toBeLessThan(0);
    expect(compareVersions('1', undefined)).toBeGreaterThan(0);
  });
});
