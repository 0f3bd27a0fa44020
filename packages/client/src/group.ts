import { connect, type ConnectOptions } from './connect.js';
import type { McpClient } from './client.js';
import type { CallOptions, CallToolResult, Tool } from './types.js';

// Many servers as one: the `mcpServers` configuration Claude Desktop, Cursor and others use,
// connected side by side, their tools namespaced `<server>_<tool>` and each call routed to its
// server. A server that cannot be reached is reported and left out; the others work on.

/** One server of an `mcpServers` configuration: a command to start, or a URL. */
export type McpServerEntry =
  | {
      /** The program, e.g. `npx` or `node`. */
      readonly command: string;
      readonly args?: readonly string[];
      /** Added to (and overriding) this process's environment. */
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /** Skip this server (Cursor's and Claude Desktop's switch). */
      readonly disabled?: boolean;
    }
  | {
      readonly url: string;
      /** Sent with every request, e.g. `{ "Authorization": "Bearer …" }`. */
      readonly headers?: Readonly<Record<string, string>>;
      /** `sse` pins the 2024-11-05 HTTP+SSE transport; anything else is Streamable HTTP first. */
      readonly type?: string;
      readonly disabled?: boolean;
    };

/** The configuration file's shape: `{ "mcpServers": { "<name>": { … } } }`. */
export interface McpServersConfig {
  readonly mcpServers: Readonly<Record<string, McpServerEntry>>;
}

/** A tool of the group: the server's tool under its namespaced name. */
export interface GroupTool extends Tool {
  /** The server it belongs to (its key in `mcpServers`). */
  readonly server: string;
  /** Its name on that server. */
  readonly serverToolName: string;
}

/** Options of {@link connectServers}: {@link ConnectOptions} for every server. */
export interface GroupOptions extends ConnectOptions {
  /** Joins a server's name and a tool's (default `_`: `weather_get_forecast`). */
  readonly separator?: string;
}

/**
 * Connects every server of an `mcpServers` configuration (the shape Claude Desktop and Cursor
 * use) at once. A server that fails to connect does not fail the group: it is listed in
 * {@link McpClientGroup.failures} (and reported through `onWarning`), and its tools are absent.
 * A configuration entry with neither `command` nor `url` throws at once, naming the server.
 *
 * @example
 * ```ts
 * const group = await connectServers({
 *   mcpServers: {
 *     everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
 *     weather: { url: 'https://weather.example.com/mcp', headers: { Authorization: 'Bearer …' } },
 *   },
 * });
 * for (const tool of await group.listTools()) console.log(tool.name); // everything_echo, weather_get_forecast…
 * const result = await group.callTool('everything_echo', { message: 'hi' });
 * await group.close();
 * ```
 */
export async function connectServers(
  config: McpServersConfig,
  options: GroupOptions = {},
): Promise<McpClientGroup> {
  const entries = Object.entries(checked(config)).filter(([, entry]) => !entry.disabled);
  const onWarning =
    options.onWarning ?? ((message: string) => console.error(`@mcp-fw/client: ${message}`));
  const settled = await Promise.allSettled(
    entries.map(([name, entry]) => connect(targetOf(entry), optionsFor(entry, options))),
  );
  const clients = new Map<string, McpClient>();
  const failures = new Map<string, Error>();
  settled.forEach((outcome, i) => {
    const name = entries[i][0];
    if (outcome.status === 'fulfilled') clients.set(name, outcome.value);
    else {
      const error =
        outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
      failures.set(name, error);
      onWarning(`server "${name}" is left out of the group: ${error.message}`);
    }
  });
  return new McpClientGroup(clients, failures, options.separator ?? '_', onWarning);
}

/**
 * Several connected servers as one client: their tools under `<server>_<tool>` names, each call
 * routed to its server. Made by {@link connectServers}.
 *
 * @example
 * ```ts
 * const group = await connectServers(JSON.parse(await readFile('mcp.json', 'utf8')));
 * const tools = await group.listTools();
 * await group.callTool(tools[0].name, {});
 * console.log([...group.clients.keys()], [...group.failures.keys()]);
 * await group.close();
 * ```
 */
export class McpClientGroup {
  /** The connected servers, by their name in `mcpServers`. */
  readonly clients: ReadonlyMap<string, McpClient>;
  /** The servers that could not be reached (or that failed since), with why. */
  readonly failures: Map<string, Error>;
  readonly #separator: string;
  readonly #onWarning: (message: string) => void;
  /** Namespaced name → server and tool, from the last listing. */
  readonly #routes = new Map<string, { server: string; tool: string }>();

  /** @internal Made by {@link connectServers}. */
  constructor(
    clients: Map<string, McpClient>,
    failures: Map<string, Error>,
    separator: string,
    onWarning: (message: string) => void,
  ) {
    this.clients = clients;
    this.failures = failures;
    this.#separator = separator;
    this.#onWarning = onWarning;
  }

  /**
   * Every reachable server's tools, named `<server>_<tool>`. A server whose listing fails is
   * reported through `onWarning` and left out of this answer; the others are listed.
   */
  async listTools(options: CallOptions = {}): Promise<GroupTool[]> {
    const servers = [...this.clients];
    const listed = await Promise.allSettled(servers.map(([, client]) => client.listTools(options)));
    const all: GroupTool[] = [];
    this.#routes.clear();
    listed.forEach((outcome, i) => {
      const server = servers[i][0];
      if (outcome.status === 'rejected') {
        this.#onWarning(
          `server "${server}" is left out of the tool list: ${(outcome.reason as Error)?.message ?? String(outcome.reason)}`,
        );
        return;
      }
      for (const tool of outcome.value) {
        const name = `${server}${this.#separator}${tool.name}`;
        this.#routes.set(name, { server, tool: tool.name });
        all.push({ ...tool, name, server, serverToolName: tool.name });
      }
    });
    return all;
  }

  /**
   * Calls `<server>_<tool>` on its server. An unknown server or a server that is down rejects
   * with an error naming it; the other servers are not affected.
   */
  async callTool(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const { server, tool } = this.#route(name);
    const client = this.clients.get(server);
    if (!client) {
      const why = this.failures.get(server)?.message;
      throw new Error(
        `Tool "${name}": server "${server}" is not connected${why ? ` (${why})` : ''}`,
      );
    }
    return client.callTool(tool, args, options);
  }

  /** The client of one server, by its name in `mcpServers`. */
  client(server: string): McpClient | undefined {
    return this.clients.get(server);
  }

  /** Closes every server's client. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.clients.values()].map((client) => client.close()));
  }

  #route(name: string): { server: string; tool: string } {
    const known = this.#routes.get(name);
    if (known) return known;
    // Not listed yet: the longest server name that prefixes it (names may hold the separator).
    const servers = [...this.clients.keys(), ...this.failures.keys()]
      .filter((server) => name.startsWith(`${server}${this.#separator}`))
      .sort((a, b) => b.length - a.length);
    if (servers.length === 0)
      throw new TypeError(
        `Tool "${name}" names no server of the group; group tools are named <server>${this.#separator}<tool>, with a server among: ${[...this.clients.keys()].join(', ') || '(none connected)'}`,
      );
    const server = servers[0];
    return { server, tool: name.slice(server.length + this.#separator.length) };
  }
}

function checked(config: McpServersConfig): Readonly<Record<string, McpServerEntry>> {
  const servers = (config as { mcpServers?: unknown })?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new TypeError(
      'The configuration has no "mcpServers" object; expected { "mcpServers": { "<name>": { "command": …, "args": […] } or { "url": … } } }',
    );
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    const e = entry as Record<string, unknown> | null;
    if (typeof e?.command !== 'string' && typeof e?.url !== 'string')
      throw new TypeError(
        `mcpServers["${name}"] has neither "command" (a program to start) nor "url" (an http(s) endpoint); give one of them`,
      );
  }
  return servers as Record<string, McpServerEntry>;
}

function targetOf(entry: McpServerEntry) {
  return 'command' in entry
    ? { command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd }
    : entry.url;
}

function optionsFor(entry: McpServerEntry, options: GroupOptions): ConnectOptions {
  if (!('url' in entry)) return options;
  return {
    ...options,
    headers: { ...options.headers, ...entry.headers },
    ...(entry.type === 'sse' ? { transport: 'http+sse' as const } : {}),
  };
}
