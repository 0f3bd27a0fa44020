import type { Channel } from './jsonrpc/index.js';
import { ServerConnection, stderrLogger, ToolListCache, type Logger, type ServerCore } from './protocol/index.js';
import { Registry, type Provider, type ToolDefinition } from './registry/index.js';

/**
 * Options of {@link createServer}.
 *
 * @example
 * ```ts
 * createServer({ name: 'shop', version: '2.1.0', instructions: 'Use find_order first.', providers: [new Orders(db)], pageSize: 50 });
 * ```
 */
export interface ServerOptions {
  /** `serverInfo.name` */
  name: string;
  /** `serverInfo.version` */
  version: string;
  /** A human-readable name (sent from 2025-06-18 on). */
  title?: string;
  /** Told to the client at initialize: how and when to use this server. */
  instructions?: string;
  /** Classes (constructed with no arguments) or instances whose decorated methods are served. */
  providers: readonly Provider[];
  /** Items per page of list results; all in one page when unset. */
  pageSize?: number;
  /** Where internal errors are reported; stderr by default, never stdout. */
  logger?: Logger;
}

/**
 * A server built from decorated classes. The registry is built and checked when the server is
 * created, so a bad schema or a duplicate name fails at startup, not on the first call. One
 * server can serve any number of connections (see `serveStdio` in `@mcp-fw/core/stdio`).
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'calc', version: '1.0.0', providers: [Calculator] });
 * console.error(server.tools.map((t) => t.name)); // ['add', ...]
 * ```
 */
export class McpServer {
  readonly #core: ServerCore;

  constructor(options: ServerOptions) {
    const { name, version, title, instructions } = options;
    this.#core = Object.freeze({
      identity: Object.freeze({ name, version, title, instructions }),
      registry: Registry.build(options.providers),
      logger: options.logger ?? stderrLogger,
      pageSize: options.pageSize ?? Number.POSITIVE_INFINITY,
      toolLists: new ToolListCache(),
    });
  }

  /** The tools this server serves, in `tools/list` order. */
  get tools(): readonly ToolDefinition[] {
    return this.#core.registry.tools;
  }

  /** Serves one client over `channel` until it closes. Transports call this. */
  connect(channel: Channel): ServerConnection {
    return new ServerConnection(this.#core, channel);
  }
}

/**
 * Creates a server from decorated classes or instances.
 *
 * @example
 * ```ts
 * import { createServer, Tool } from '@mcp-fw/core';
 * import { serveStdio } from '@mcp-fw/core/stdio';
 * import { z } from 'zod';
 *
 * class Greeter {
 *   @Tool({ description: 'Greets someone', input: z.object({ name: z.string() }) })
 *   greet({ name }: { name: string }) {
 *     return `Hello, ${name}!`;
 *   }
 * }
 *
 * await serveStdio(createServer({ name: 'greeter', version: '1.0.0', providers: [Greeter] }));
 * ```
 */
export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
