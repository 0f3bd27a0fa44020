import { homedir } from 'node:os';
import { join } from 'node:path';

/** The clients `mcp-fw install` knows. */
export const CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** One stdio server entry, as client configurations hold it. */
export interface ServerEntry {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Where a client keeps its MCP servers and how it shapes one entry. */
export interface ClientConfig {
  readonly title: string;
  /** The default configuration file. */
  readonly path: string;
  /** The top-level key that maps server names to entries. */
  readonly key: 'mcpServers' | 'servers';
  shape(entry: ServerEntry): Record<string, unknown>;
  /** What to tell the user once written. */
  readonly next: string;
}

function claudeConfigPath(): string {
  if (process.platform === 'darwin')
    return join(
      homedir(),
      'Library',
      'Application Support',
      'Claude',
      'claude_desktop_config.json',
    );
  if (process.platform === 'win32')
    return join(
      process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    );
  return join(
    process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'),
    'Claude',
    'claude_desktop_config.json',
  );
}

const plain = (entry: ServerEntry) => ({
  command: entry.command,
  args: [...entry.args],
  ...(entry.env ? { env: { ...entry.env } } : {}),
});

/** The configuration of `client` (paths resolved now: the cwd matters for VS Code). */
export function clientConfig(client: ClientName): ClientConfig {
  switch (client) {
    case 'claude':
      return {
        title: 'Claude Desktop',
        path: claudeConfigPath(),
        key: 'mcpServers',
        shape: plain,
        next: 'Restart Claude Desktop to load it.',
      };
    case 'cursor':
      return {
        title: 'Cursor',
        path: join(homedir(), '.cursor', 'mcp.json'),
        key: 'mcpServers',
        shape: plain,
        next: 'Cursor picks it up in Settings → MCP.',
      };
    case 'vscode':
      return {
        title: 'VS Code',
        path: join(process.cwd(), '.vscode', 'mcp.json'),
        key: 'servers',
        shape: (entry) => ({ type: 'stdio', ...plain(entry) }),
        next: 'Start it from the MCP: List Servers command in VS Code.',
      };
  }
}
