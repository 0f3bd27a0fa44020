import type { ConnectOptions } from '@mcp-fw/client';
import {
  JsonRpcError,
  McpFwServer,
  UserError,
  type Middleware,
  type ServerOptions,
  type ToolTransform,
} from '@mcp-fw/core';
import { callerMiddleware } from './caller.js';
import { Mirror, type ProxyTask } from './mirror.js';
import { DEFAULT_SEPARATOR } from './naming.js';
import { ProxyPassThrough } from './pass-through.js';
import { applyShape, checkShape, type UpstreamShape } from './shape.js';
import { openerOf, type McpServerEntry, type ProxyTarget } from './target.js';
import { Upstream, UpstreamRpcError, type UpstreamHealth } from './upstream.js';

/** Per-upstream settings of {@link createProxy} (every field optional). */
export interface UpstreamOptions {
  /**
   * Whose credentials reach the upstream: `'own'` (default) sends only the headers configured
   * for it (an `mcpServers` entry's `headers`, or `connect.headers`); `'forward'` sends the
   * downstream caller's `Authorization: Bearer` token instead. A caller's token never reaches an
   * upstream not set to `'forward'`.
   */
  readonly credentials?: 'own' | 'forward';
  /**
   * `'per-client'` (default): each downstream session (and caller token) gets its own upstream
   * session, so that nothing of one client (its log level, subscriptions, questions) reaches
   * another. `'shared'`: every caller uses the proxy's one connection (cheaper; for stateless
   * upstreams and single-user proxies).
   */
  readonly sessions?: 'per-client' | 'shared';
  /** How long one forwarded request may take, in ms (default 60 000). */
  readonly timeoutMs?: number;
  /** How often a down upstream is tried again, in ms (default 2000). */
  readonly retryMs?: number;
  /** Most upstream sessions open at once (default 100); the idlest is closed for a new one. */
  readonly maxSessions?: number;
  /** An upstream session unused this long is closed, in ms (default 300 000). */
  readonly idleMs?: number;
  /** Log messages passed on per upstream session and second; more are dropped (default 50). */
  readonly maxLogsPerSecond?: number;
  /** How the proxy connects (protocol revision, headers, `clientInfo`, …). */
  readonly connect?: ConnectOptions;
  /**
   * Transforms of the upstream's tools (core's `server.transform` spec), by the name the
   * upstream gives them; a new `name` is namespaced like the upstream's other members. Applied
   * once the upstream first lists its tools; a tool or argument it does not have is an error
   * naming the upstream and the tool. An `mcpServers` entry can carry the same `tools`.
   *
   * @example
   * ```ts
   * { tools: { read_text_file: { name: 'read', args: { tail: { hide: true } } } } }
   * ```
   */
  readonly tools?: Readonly<Record<string, ToolTransform>>;
  /**
   * Tools the proxy runs as tasks, by the name the upstream gives them: `'optional'`,
   * `'required'` or core's task options (`{ mode, deferred, ttlMs, pollIntervalMs }`). For a tool
   * the upstream does not run as a task (a 2025-06-18 server has no tasks, nor does a server
   * without the capability), the proxy runs the upstream call as a task of its own: tasks/get,
   * result, cancel and list answer from the proxy, a cancel reaches the upstream as
   * `notifications/cancelled`, and the upstream's questions reach the caller through the task.
   * `deferred: true` asks first: the upstream's questions are input rounds of the request, and
   * the call becomes a task once the caller answered one (the 2025-11-25 wire cannot say that
   * of a task tool, so it applies to an upstream's task tools too).
   *
   * @example
   * ```ts
   * { tasks: { build_release: 'required', deploy: { mode: 'optional', deferred: true } } }
   * ```
   */
  readonly tasks?: Readonly<Record<string, ProxyTask>>;
  /** Serve only these of the upstream's tools and prompts (its own names), via `server.filter`. */
  readonly include?: readonly string[];
  /** Do not serve these of the upstream's tools and prompts (its own names), via `server.filter`. */
  readonly exclude?: readonly string[];
}

/** Options of {@link createProxy}. */
export interface ProxyOptions extends UpstreamOptions {
  /**
   * The options of the server the proxy is (`createServer`'s, without `providers`): its name
   * (default `mcp-fw-proxy`), version, limits, logger, middleware, …
   */
  readonly server?: Partial<Omit<ServerOptions, 'providers'>>;
  /**
   * Prefix of the upstream's tool and prompt names (`<namespace>_<name>`); none by default for
   * one upstream. With `mcpServers`, each upstream's key is its namespace.
   */
  readonly namespace?: string;
  /** Between namespace and name (default `_`). */
  readonly separator?: string;
  /**
   * Settings of individual upstreams of an `mcpServers` target, by name; each wins over the
   * top-level option of the same key (`tools`, `include`, `exclude`, `tasks`, `credentials`…),
   * which applies to every upstream that has none of its own.
   */
  readonly upstreams?: Readonly<Record<string, UpstreamOptions>>;
  /** Where warnings go (an upstream down, a member that cannot be served); default stderr. */
  readonly onWarning?: (message: string) => void;
}

/** A whole `mcpServers` configuration: several upstreams, each namespaced by its key. */
export interface McpServersConfig {
  readonly mcpServers: Readonly<Record<string, McpServerEntry | ProxyTarget>>;
}

interface Served {
  readonly upstream: Upstream;
  readonly mirror: Mirror;
  readonly fingerprint: string;
}

/**
 * The server {@link createProxy} returns: a normal mcp-fw server (serve it over stdio or HTTP,
 * add middleware, mount it) whose members forward to its upstreams, with their health.
 *
 * @example
 * ```ts
 * const proxy = await createProxy('https://example.com/mcp');
 * console.error(proxy.health()); // [{ name: 'upstream', state: 'up', … }]
 * ```
 */
export class ProxyServer extends McpFwServer {
  readonly #options: ProxyOptions;
  readonly #served = new Map<string, Served>();
  readonly #warn: (message: string) => void;
  /**
   * The fast path of forwarded calls (pass-through.ts): on while the server has no middleware,
   * limits or audit log of the user's, which calls it takes would skip.
   */
  readonly #passThrough: ProxyPassThrough;
  #plain: boolean;

  /** @internal Made by {@link createProxy}. */
  constructor(options: ProxyOptions) {
    super({
      ...options.server,
      name: options.server?.name ?? 'mcp-fw-proxy',
      version: options.server?.version ?? '0.1.0',
    });
    this.#options = options;
    this.#warn = options.onWarning ?? ((message) => console.error(`@mcp-fw/proxy: ${message}`));
    this.use(callerMiddleware, {
      // A call that reaches no member while an upstream is down fails because of it: say so.
      // An upstream's JSON-RPC error stays one (a handler's throw would be an isError result):
      // a task the upstream failed fails downstream too.
      callTool: (_ctx, next) =>
        this.#explained(next).catch((error: unknown) => {
          const cause = (error as { cause?: unknown } | undefined)?.cause;
          throw cause instanceof UpstreamRpcError ? cause : error;
        }),
      readResource: (_ctx, next) => this.#explained(next),
      getPrompt: (_ctx, next) => this.#explained(next),
    });
    const server = options.server;
    this.#plain =
      (server?.middleware === undefined || server.middleware.length === 0) &&
      server?.limits === undefined &&
      (server?.audit === undefined || server.audit === false);
    this.#passThrough = new ProxyPassThrough(
      this,
      () => this.#served.values(),
      () => this.#plain,
    );
    this.passThrough(this.#passThrough);
  }

  /**
   * Adds middleware, as on any mcp-fw server; from then on every call takes the full path, so
   * that the middleware sees it (see the composition guide, "Performance").
   */
  override use(...middleware: Middleware[]): this {
    super.use(...middleware);
    // The constructor's own use() runs before #passThrough exists: it does not count.
    if (this.#passThrough !== undefined) this.#plain = false;
    return this;
  }

  /** @internal Calls the fast path took (tests read it). */
  get passedThrough(): number {
    return this.#passThrough.taken;
  }

  /** Each upstream's state: up, down (and why), connecting, and its open sessions. */
  health(): UpstreamHealth[] {
    return [...this.#served.values()].map((s) => s.upstream.health());
  }

  /** @internal The mirrors, by upstream name (tests read how often lists were read). */
  mirror(name: string): Mirror | undefined {
    return this.#served.get(name)?.mirror;
  }

  /**
   * Serves exactly these upstreams from now on: new ones are connected, removed ones closed and
   * their members removed, changed ones reconnected; the rest keep their sessions. The gateway
   * calls it when its configuration file changes.
   *
   * @example
   * ```ts
   * await proxy.configure({ weather: { url: 'http://127.0.0.1:4000/mcp' } }, { namespaced: true });
   * ```
   */
  async configure(
    targets: Readonly<Record<string, ProxyTarget>>,
    { namespaced = true }: { readonly namespaced?: boolean } = {},
  ): Promise<void> {
    const wanted = new Map(Object.entries(targets));
    for (const [name, served] of [...this.#served]) {
      const target = wanted.get(name);
      if (target !== undefined && fingerprintOf(target) === served.fingerprint) continue;
      this.#served.delete(name);
      served.mirror.clear();
      await served.upstream.close();
    }
    const shapes = new Map<string, UpstreamShape>();
    for (const [name, target] of wanted) {
      if (this.#served.has(name)) continue;
      const shape = {
        // The top-level options are every upstream's defaults, as for credentials and tasks.
        ...shapeOf(target, { ...this.#options, ...this.#options.upstreams?.[name] }),
        tasks: this.#options.upstreams?.[name]?.tasks ?? this.#options.tasks,
      };
      // Checked before anything connects, so a typo fails at load.
      checkShape(name, shape);
      shapes.set(name, shape);
    }
    const starting: Promise<void>[] = [];
    for (const [name, target] of wanted) {
      if (this.#served.has(name)) continue;
      const own = { ...this.#options, ...this.#options.upstreams?.[name] };
      const shape = shapes.get(name) as UpstreamShape;
      let mirror: Mirror | undefined;
      const upstream = new Upstream(openerOf(target), {
        name,
        credentials: own.credentials ?? 'own',
        sessions: own.sessions ?? 'per-client',
        timeoutMs: own.timeoutMs ?? 60_000,
        retryMs: own.retryMs ?? 2000,
        maxSessions: own.maxSessions ?? 100,
        idleMs: own.idleMs ?? 300_000,
        maxLogsPerSecond: own.maxLogsPerSecond ?? 50,
        // Every log message the upstream has is asked for: each caller's ctx.log filters by the
        // level that caller set.
        connect: { validateOutput: false, logLevel: 'debug', ...own.connect },
        changed: () => mirror?.schedule(),
        resourceUpdated: (uri) => this.resources.updated(uri),
        warn: this.#warn,
      });
      const namespace = namespaced ? name : this.#options.namespace;
      const separator = this.#options.separator ?? DEFAULT_SEPARATOR;
      // The shape applies once the upstream's tools are served (they must exist to transform);
      // an upstream down at start gets it when it first answers, and a failure then is a warning.
      let shaped = isEmptyShape(shape);
      let failure: Error | undefined;
      let atStart = true;
      const listed = () => {
        if (shaped) return;
        shaped = true;
        try {
          applyShape(this, name, namespace, separator, shape);
        } catch (error) {
          if (atStart) failure = error as Error;
          else this.#warn((error as Error).message);
        }
      };
      mirror = new Mirror(this, upstream, namespace, separator, listed, shape.tasks);
      this.#served.set(name, { upstream, mirror, fingerprint: fingerprintOf(target) });
      const first = mirror;
      starting.push(
        upstream
          .primary()
          .then(
            () => first.refresh(),
            () => {}, // down at start: health says so, calls say so, and it is retried
          )
          .then(() => {
            atStart = false;
            if (failure) throw failure;
          }),
      );
    }
    await Promise.all(starting);
  }

  /** Closes every upstream connection (a client given as the target stays open). */
  async close(): Promise<void> {
    const served = [...this.#served.values()];
    this.#served.clear();
    for (const s of served) s.mirror.clear();
    await Promise.all(served.map((s) => s.upstream.close()));
  }

  async #explained<T>(next: () => Promise<T>): Promise<T> {
    try {
      return await next();
    } catch (error) {
      const down = [...this.#served.values()].filter((s) => s.upstream.state === 'down');
      if (down.length === 0 || !(error instanceof JsonRpcError || error instanceof UserError))
        throw error;
      const why = down.map((s) => s.upstream.downMessage()).join(' ');
      if (error instanceof JsonRpcError && !error.message.includes('Upstream "'))
        throw new JsonRpcError(error.code, `${error.message}. ${why}`, error.data);
      throw error;
    }
  }
}

/**
 * Serves an MCP server through this one: its tools, resources, templates and prompts are
 * mirrored (and read again when the upstream says they changed), and calls, reads, completion,
 * progress, log messages, cancellation and the upstream's questions (elicitation, sampling,
 * roots) are forwarded, in whatever protocol era each side speaks. The target is an `http(s)`
 * URL, a command, an `mcpServers` entry, a whole `{ mcpServers }` configuration (each upstream
 * namespaced by its key), a server in this process or a connected `@mcp-fw/client`.
 *
 * Resolves once the upstreams were tried: one that is down is served empty, retried every
 * `retryMs`, and its members appear when it is back; calls meanwhile fail naming it.
 *
 * @example
 * ```ts
 * import { createProxy } from '@mcp-fw/proxy';
 * import { serveStdio } from '@mcp-fw/core/stdio';
 *
 * const proxy = await createProxy('https://example.com/mcp', { credentials: 'forward' });
 * serveStdio(proxy);
 * ```
 */
export async function createProxy(
  target: ProxyTarget | McpServersConfig,
  options: ProxyOptions = {},
): Promise<ProxyServer> {
  const proxy = new ProxyServer(options);
  try {
    if (isConfig(target)) await proxy.configure(target.mcpServers, { namespaced: true });
    else
      await proxy.configure(
        { [options.namespace ?? 'upstream']: target },
        { namespaced: options.namespace !== undefined },
      );
  } catch (error) {
    await proxy.close(); // a refused shape must not leave upstream processes running
    throw error;
  }
  return proxy;
}

/**
 * An upstream's `tools` / `include` / `exclude`: its entry's, else its upstream options' (its own
 * in `upstreams`, else the proxy's top-level ones).
 */
function shapeOf(target: ProxyTarget, options: UpstreamOptions | undefined): UpstreamShape {
  // Only an mcpServers entry carries them (a server object has a `tools` of its own).
  const isEntry =
    typeof target === 'object' &&
    target !== null &&
    !(target instanceof URL) &&
    !('connect' in target) &&
    (typeof (target as McpServerEntry).command === 'string' ||
      typeof (target as McpServerEntry).url === 'string');
  const entry: McpServerEntry = isEntry ? (target as McpServerEntry) : {};
  return {
    tools: entry.tools ?? options?.tools,
    include: entry.include ?? options?.include,
    exclude: entry.exclude ?? options?.exclude,
  };
}

function isEmptyShape(shape: UpstreamShape): boolean {
  return shape.tools === undefined && shape.include === undefined && shape.exclude === undefined;
}

function isConfig(target: unknown): target is McpServersConfig {
  return (
    typeof target === 'object' &&
    target !== null &&
    typeof (target as McpServersConfig).mcpServers === 'object' &&
    (target as McpServersConfig).mcpServers !== null
  );
}

function fingerprintOf(target: ProxyTarget): string {
  if (typeof target === 'string' || target instanceof URL) return String(target);
  try {
    if ('command' in target || 'url' in target) return JSON.stringify(target);
  } catch {}
  return `object:${objectIds.get(target) ?? objectIds.set(target, nextId++).get(target)}`;
}

const objectIds = new WeakMap<object, number>();
let nextId = 0;
