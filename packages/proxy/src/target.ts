import type { ToolTransform } from '@mcp-fw/core';
import {
  connect,
  McpClient,
  type CommandTarget,
  type ConnectOptions,
  type ConnectTarget,
} from '@mcp-fw/client';

/**
 * One entry of an MCP client's `mcpServers` configuration (Claude Desktop, Cursor, VS Code):
 * a command to start (stdio) or a URL (Streamable HTTP, or HTTP+SSE with `type: 'sse'`).
 *
 * @example
 * ```ts
 * const files: McpServerEntry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] };
 * const remote: McpServerEntry = { url: 'https://example.com/mcp', headers: { authorization: 'Bearer …' } };
 * ```
 */
export interface McpServerEntry {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  /** Headers sent with every HTTP request (the proxy's own credentials). */
  readonly headers?: Readonly<Record<string, string>>;
  /** `stdio`, `http` / `streamable-http`, or `sse` (the 2024 HTTP+SSE transport). */
  readonly type?: string;
  /**
   * Transforms of the upstream's tools, by the name the upstream gives them (core's
   * `server.transform` spec; a new `name` is namespaced like the others).
   */
  readonly tools?: Readonly<Record<string, ToolTransform>>;
  /** Serve only these of the upstream's tools and prompts (its own names). */
  readonly include?: readonly string[];
  /** Do not serve these of the upstream's tools and prompts (its own names). */
  readonly exclude?: readonly string[];
}

/**
 * What a proxy serves: an `http(s)` URL, a command to start, an `mcpServers` entry, a server in
 * this process, or a client connected already (then every caller shares its session).
 */
export type ProxyTarget = string | URL | CommandTarget | McpServerEntry | McpClient | ConnectTarget;

/** How to reach an upstream: a fresh connection on demand, or the one client given. */
export interface Opener {
  /** For messages: the URL or the command line. */
  readonly describe: string;
  /** Whether the target speaks HTTP (only then can a caller's token be forwarded). */
  readonly http: boolean;
  /** The client given as the target: every caller shares it. */
  readonly shared?: McpClient;
  /** The headers configured for this upstream. */
  readonly headers: Readonly<Record<string, string>>;
  open(options: ConnectOptions): Promise<McpClient>;
}

/** Reads a target; throws a `TypeError` naming what is wrong with it. */
export function openerOf(target: ProxyTarget): Opener {
  if (target instanceof McpClient)
    return {
      describe: `a connected client (${target.transport})`,
      http: target.transport === 'streamable-http' || target.transport === 'http+sse',
      shared: target,
      headers: {},
      open: async () => target,
    };
  if (typeof target === 'string' || target instanceof URL) {
    const url = String(target);
    return {
      describe: url,
      http: true,
      headers: {},
      open: (options) => connect(url, options),
    };
  }
  if (typeof target === 'object' && target !== null && 'connect' in target)
    return {
      describe: 'a server in this process',
      http: false,
      headers: {},
      open: (options) => connect(target as ConnectTarget, options),
    };
  const entry = target as McpServerEntry;
  if (typeof entry?.url === 'string') {
    const headers = { ...entry.headers };
    const transport = entry.type === 'sse' ? ('http+sse' as const) : undefined;
    return {
      describe: entry.url,
      http: true,
      headers,
      open: (options) =>
        connect(entry.url as string, {
          ...options,
          headers: { ...headers, ...options.headers },
          ...(transport ? { transport } : {}),
        }),
    };
  }
  if (typeof entry?.command === 'string') {
    const command: CommandTarget = {
      command: entry.command,
      ...(entry.args ? { args: entry.args } : {}),
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
    return {
      describe: [entry.command, ...(entry.args ?? [])].join(' '),
      http: false,
      headers: {},
      open: (options) => connect(command, options),
    };
  }
  throw new TypeError(
    `createProxy: cannot reach ${JSON.stringify(target)}. Give an http(s) URL, { command, args }, an mcpServers entry ({ url } or { command }), a server object or a connected @mcp-fw/client.`,
  );
}
