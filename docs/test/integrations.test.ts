// The "Connect a client" pages: each host's configuration for a stdio and an HTTP server is
// valid JSON in that host's shape, the stdio entries are what `mcp-fw install` writes for the
// hosts it knows, and every entry points at what an mcp-fw project serves (its built launcher,
// http://127.0.0.1:3000/mcp).
import { describe, expect, it } from 'vitest';
import { clientConfig, type ClientName } from '../../packages/cli/src/install/clients.ts';
import { GUIDE } from '../.vitepress/sidebar.ts';
import { pageText } from './pages.ts';

const LAUNCHER = '/absolute/path/to/my-server/dist/server.launch.cjs';
const URL = 'http://127.0.0.1:3000/mcp';

/** The JSON blocks of a page, parsed, under the `## stdio` and `## HTTP` headings. */
function configs(page: string): Record<'stdio' | 'HTTP', unknown[]> {
  const text = pageText(`docs/integrations/${page}.md`);
  const found: Record<'stdio' | 'HTTP', unknown[]> = { stdio: [], HTTP: [] };
  for (const section of text.split(/^## /m).slice(1)) {
    const heading = section.slice(0, section.indexOf('\n')).trim() as 'stdio' | 'HTTP';
    for (const [, json] of section.matchAll(/```json\n([\s\S]*?)```/g))
      found[heading].push(JSON.parse(json));
  }
  return found;
}

describe('the integration pages give each host its exact configuration for stdio and HTTP', () => {
  it('has a page per host in the sidebar', () => {
    const group = GUIDE.find((g) => g.text === 'Connect a client')!;
    expect(group.items.map((i) => i.text)).toEqual([
      'Overview',
      'Claude Desktop',
      'Claude Code',
      'Cursor',
      'VS Code',
      'ChatGPT',
      'Gemini CLI',
    ]);
  });

  it.each([
    ['claude-desktop', 'claude'],
    ['cursor', 'cursor'],
    ['vscode', 'vscode'],
  ] as const)(
    '%s: the stdio entry is the one mcp-fw install %s writes',
    (page, client: ClientName) => {
      const { key, shape } = clientConfig(client);
      const [stdio] = configs(page).stdio as Record<string, Record<string, { args: string[] }>>[];
      const entry = stdio[key]['my-server'];
      expect(entry).toEqual(shape({ command: 'node', args: entry.args }));
      expect(entry.args[0]).toMatch(/\/dist\/server\.launch\.cjs$/);
    },
  );

  it.each([
    ['claude-desktop', { command: 'npx', args: ['-y', 'mcp-remote', URL] }, 'mcpServers'],
    ['claude-code', { type: 'http', url: URL }, 'mcpServers'],
    ['cursor', { url: URL }, 'mcpServers'],
    ['vscode', { type: 'http', url: URL }, 'servers'],
    ['gemini-cli', { httpUrl: URL }, 'mcpServers'],
  ])('%s: the HTTP entry reaches the server at its URL', (page, entry, key) => {
    const http = configs(page).HTTP as Record<string, Record<string, unknown>>[];
    expect(http.at(-1)).toEqual({ [key]: { 'my-server': entry } });
  });

  it.each(['claude-code', 'gemini-cli'])(
    '%s: the stdio entry launches the built server',
    (page) => {
      expect(configs(page).stdio).toEqual([
        { mcpServers: { 'my-server': { command: 'node', args: [LAUNCHER] } } },
      ]);
      expect(pageText(`docs/integrations/${page}.md`)).toContain(`node ${LAUNCHER}`);
    },
  );

  it('chatgpt: only a public HTTPS URL, no stdio', () => {
    const text = pageText('docs/integrations/chatgpt.md');
    expect(configs('chatgpt').stdio).toEqual([]);
    expect(text).toContain('`https://mcp.example.com/mcp`');
    expect(text).toMatch(/no\s+configuration file and no stdio/);
  });
});
