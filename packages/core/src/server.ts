import type { Channel } from './jsonrpc/index.js';
import {
  ConnectionHub,
  Guards,
  InputRuns,
  ListCache,
  Pipeline,
  ServerConnection,
  stderrLogger,
  type AuditOptions,
  type Context,
  type EraMode,
  type InputRoundSettings,
  type ListName,
  type Logger,
  type Middleware,
  type PassThrough,
  type ServerCore,
  type ServerLimits,
} from './protocol/index.js';
import {
  checkFilter,
  checkNamespace,
  checkTransformTarget,
  membersAsTools,
  checkToolSearch,
  type ToolSearch,
  checkCodeMode,
  type CodeMode,
  mountedMembers,
  Registry,
  SkillCatalog,
  StartupError,
  Transforms,
  typeSchemasOption,
  undescribedMembers,
  type ExposeAsTools,
  type MemberFilter,
  type Members,
  type MountPoint,
  type Provider,
  type SkillSource,
  type ToolTransform,
  type TypeSchemas,
} from './registry/index.js';
import { announceChanges, MemberControl, ResourceControl } from './protocol/server-members.js';
import type { Icon } from './decorators/index.js';
import type { ServerCardData } from './transports/http/index.js';
import { Tasks } from './protocol/tasks/index.js';
import { SessionStateKeeper } from './protocol/session-state/index.js';
import type { SharedStore } from './stores/index.js';

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
  /**
   * What the server does, in a sentence (at most 100 characters: the Server Card's and the MCP
   * registry's limit). Sent in `serverInfo` from 2025-11-25 on, and on the Server Card.
   */
  description?: string;
  /**
   * Icons of the server (SEP-973): `src` is an `https:` or `data:` URI. Sent in `serverInfo`
   * from 2025-11-25 on (never to older revisions), and on the Server Card.
   *
   * @example
   * ```ts
   * createServer({ name: 'weather', version: '1.0.0', icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }] });
   * ```
   */
  icons?: Icon[];
  /** The server's home page or documentation (sent from 2025-11-25 on, and on the Server Card). */
  websiteUrl?: string;
  /**
   * The server's name in the MCP registry: reverse-DNS with one slash
   * (`io.github.acme/weather`). With a `description` it turns on the Server Card of the HTTP
   * endpoint (`<path>/server-card`), and `mcp-fw publish` writes it into `server.json`.
   */
  registryName?: string;
  /** Where the source lives, for the Server Card and `server.json` (`source`: e.g. `github`). */
  repository?: { url: string; source: string; subfolder?: string; id?: string };
  /**
   * The environment variables the server reads, declared so that installers can ask for them:
   * `mcp-fw publish` writes them into `server.json` (`environmentVariables`, with `isRequired`
   * and `isSecret`). Declaring reads nothing: the server still reads `process.env` itself.
   *
   * @example
   * ```ts
   * createServer({ name: 'weather', version: '1.0.0', settings: { WEATHER_API_KEY: { description: 'API key of openweathermap.org', secret: true } } });
   * ```
   */
  settings?: Record<string, ServerSetting>;
  /**
   * Classes (constructed with no arguments) or instances whose decorated methods are served;
   * none when everything is added later with {@link McpFwServer.add}.
   */
  providers?: readonly Provider[];
  /**
   * Input and output schemas and descriptions read from the providers' TypeScript signatures
   * and JSDoc: the `schemas` export of the module `npx mcp-fw-schemas` generates. They apply
   * to methods whose decorator declares no `input` / `output` / `description` of its own.
   */
  schemas?: TypeSchemas;
  /** Items per page of list results; all in one page when unset. */
  pageSize?: number;
  /** Where internal errors are reported; stderr by default, never stdout. */
  logger?: Logger;
  /** How long `ctx.elicit`, `ctx.sample` and `ctx.roots` wait for the client (default 120 s). */
  clientRequestTimeoutMs?: number;
  /** Cache hints on cacheable 2026-07-28 results (default `{ ttlMs: 0, cacheScope: 'private' }`). */
  cacheHints?: { ttlMs: number; cacheScope: 'public' | 'private' };
  /**
   * 2026-07-28 input rounds: the key that signs `requestState` (≥ 32 bytes; share it between
   * instances behind a load balancer so any of them can replay a call), the record of answered
   * rounds (`usedRounds`; share it too, so no round is answered twice), the time a round may
   * take, and the number of rounds per call. Caps on waiting rounds: `limits.inputRounds`.
   *
   * @example
   * ```ts
   * createServer({ name: 'shop', version: '1.0.0', providers: [Orders], inputRounds: { requestStateKey: process.env.STATE_KEY, maxRounds: 4 } });
   * ```
   */
  inputRounds?: InputRoundSettings;
  /**
   * @deprecated Use {@link ServerOptions.inputRounds}: `input` also names a tool's argument
   * schema (`@Tool({ input })`). Read only when `inputRounds` is unset.
   */
  input?: InputRoundSettings;
  /**
   * Guardrails around every handler: rate limits, timeouts, concurrency caps, the largest
   * result and what happens to control characters in tool text. See {@link ServerLimits}.
   */
  limits?: ServerLimits;
  /**
   * The audit log of tool calls: `true` writes one JSON line per call to stderr; or give a
   * `sink`, and `arguments: true` to record argument values, not only their keys.
   */
  audit?: boolean | AuditOptions;
  /**
   * Hide unexpected errors from clients. When masked, anything a tool, resource or prompt
   * handler throws that is not a {@link UserError} reaches the client only as
   * `Internal error (ref 3f9c0a1b2c4d); the server's log has the details`, and the server's
   * logger (stderr by default) gets the same ref with the real message and stack; the audit
   * log records the ref too. `UserError` messages (and the framework's own refusals, such as
   * limits) always pass through.
   *
   * Default: masked for clients over HTTP (Streamable HTTP and HTTP+SSE), whose model and
   * user are not the server's owner; shown over stdio and in memory, where only the local user
   * reads them. `true` masks everywhere; `false` shows every message everywhere (say it only
   * for an HTTP server whose errors hold nothing private).
   *
   * @example
   * ```ts
   * createServer({ name: 'shop', version: '1.0.0', providers: [Orders] }); // masked over HTTP
   * createServer({ name: 'shop', version: '1.0.0', providers: [Orders], maskInternalErrors: true }); // and over stdio
   * // a tool throwing new Error('db password=hunter2 rejected') answers the model:
   * //   { isError: true, content: [{ type: 'text', text: "Internal error (ref 3f9c0a1b2c4d); the server's log has the details" }] }
   * // and stderr gets: [mcp-fw] tool find_order threw (ref 3f9c0a1b2c4d) + the stack
   * ```
   */
  maskInternalErrors?: boolean;
  /**
   * Which members a caller's lists show (`tools/list`, `prompts/list`, `resources/list`,
   * `resources/templates/list`): return false to hide one from the identity `auth` (what the
   * HTTP `authenticate` hook attached; undefined on stdio). Default: every member is listed.
   * Hiding does not refuse calls: that is the HTTP endpoint's `authorize` (e.g. `@mcp-fw/auth`,
   * whose `listedWithScopes` hides what a token's scopes do not cover).
   *
   * @example
   * ```ts
   * createServer({ name: 'notes', version: '1', providers: [Notes], listed: (auth, member) => member.scopes.length === 0 || auth !== undefined });
   * ```
   */
  listed?: (auth: unknown, member: ListedMember) => boolean;
  /**
   * Middleware around every request, outermost first; more can be added with
   * {@link McpFwServer.use}. See {@link Middleware} for the order and the hooks.
   *
   * @example
   * ```ts
   * createServer({ name: 'shop', version: '1', providers: [Orders], middleware: [async (ctx, next) => { console.error(ctx.method); return next(); }] });
   * ```
   */
  middleware?: readonly Middleware[];
  /**
   * Skills served through the Skills extension (`io.modelcontextprotocol/skills`): each file
   * becomes a `skill://` resource, and clients list them with `skills/list`, get one with
   * `skills/get` (frontmatter and files with sizes and SHA-256 digests) and browse folders with
   * `resources/directory/read`. Checked at startup: a bad name, frontmatter or a skill over the
   * extension's limits (512 files, 16 MiB) is a {@link StartupError}. `loadSkills` of
   * `@mcp-fw/core/node` reads a `skills/` folder in the Agent Skills format.
   *
   * @example
   * ```ts
   * import { loadSkills } from '@mcp-fw/core/node';
   * createServer({ name: 'repo', version: '1.0.0', skills: loadSkills(new URL('../skills', import.meta.url)) });
   * ```
   */
  skills?: readonly SkillSource[];
}

/** One environment variable a server reads (see {@link ServerOptions.settings}). */
export interface ServerSetting {
  /** What it is, for the user who sets it. */
  readonly description: string;
  /** A password, token or key: installers hide it (default false). */
  readonly secret?: boolean;
  /** The server cannot start without it (default true). */
  readonly required?: boolean;
  /** The value used when it is not set. */
  readonly default?: string;
}

/** A member as {@link ServerOptions.listed} sees it. */
export interface ListedMember {
  readonly kind: 'tool' | 'prompt' | 'resource' | 'template';
  /** The tool or prompt name, the resource URI or the template's URI template. */
  readonly name: string;
  /** The OAuth scopes it declares. */
  readonly scopes: readonly string[];
}

/**
 * Options of {@link McpFwServer.mount}.
 *
 * @example
 * ```ts
 * parent.mount(weather, { namespace: 'weather' }); // weather_get_forecast
 * parent.mount(billing, { namespace: 'billing', separator: '.' }); // billing.refund
 * ```
 */
export interface MountOptions {
  /** Put before each tool and prompt name of the child: `weather` → `weather_get_forecast`. */
  namespace: string;
  /** Between the namespace and the name (default `_`). */
  separator?: string;
}

const ALL_LISTS: readonly ListName[] = ['tools', 'prompts', 'resources'];
const EMPTY_MEMBERS: Members = { tools: [], prompts: [], resources: [], templates: [] };

interface Mount {
  readonly child: McpFwServer;
  readonly at: MountPoint;
  readonly stop: () => void;
}

/** How long the transports wait for middleware to flush when they stop serving. */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * A server built from decorated classes. The registry is built and checked when the server is
 * created, so a bad schema or a duplicate name fails at startup, not on the first call. One
 * server can serve any number of connections (see `serveStdio` in `@mcp-fw/core/stdio`), and
 * its tools, prompts and resources can change at runtime.
 *
 * Named `McpFwServer`, not `McpServer` or `Server`: those are the official SDK's classes, and a
 * project that uses both (an SDK client in its tests, a migration) should never have to alias
 * one of them to tell ours from theirs.
 *
 * @example
 * ```ts
 * const server = new McpFwServer({ name: 'calc', version: '1.0.0', providers: [Calculator] });
 * server.add(new AdminTools(db)); // clients get notifications/tools/list_changed
 * server.tools.disable('reset');
 * ```
 */
export class McpFwServer {
  readonly #core: ServerCore;
  readonly #schemas: TypeSchemas | undefined;
  readonly #card: ServerCardData | undefined;
  readonly #settings: Readonly<Record<string, ServerSetting>>;
  /** Runtime control of the tools. */
  readonly tools: MemberControl;
  /** Runtime control of the prompts. */
  readonly prompts: MemberControl;
  /** Runtime control of the resources and templates, and `updated(uri)` for subscribers. */
  readonly resources: ResourceControl;

  constructor(options: ServerOptions) {
    const { name, version, title, instructions, description, icons, websiteUrl } = options;
    checkMetadata(options);
    this.#settings = Object.freeze({ ...options.settings });
    this.#card =
      options.registryName !== undefined && description !== undefined
        ? Object.freeze({
            name: options.registryName,
            version,
            description,
            ...(title !== undefined && { title }),
            ...(icons?.length && { icons }),
            ...(websiteUrl !== undefined && { websiteUrl }),
            ...(options.repository !== undefined && { repository: { ...options.repository } }),
          })
        : undefined;
    const logger = options.logger ?? stderrLogger;
    if (Array.isArray(options.middleware))
      this.#middleware = Object.freeze([...options.middleware]);
    this.#schemas = typeSchemasOption(options.schemas);
    const skills = options.skills && new SkillCatalog(options.skills);
    const registry = Registry.build(
      providerList(options.providers),
      this.#schemas,
      skills?.resources(),
    );
    this.#core = {
      identity: Object.freeze({
        name,
        version,
        title,
        instructions,
        description,
        icons,
        websiteUrl,
      }),
      registry,
      logger,
      maskInternalErrors: options.maskInternalErrors,
      pageSize: options.pageSize ?? Number.POSITIVE_INFINITY,
      lists: new ListCache(),
      hub: new ConnectionHub(),
      clientRequestTimeoutMs: options.clientRequestTimeoutMs ?? 120_000,
      listed: options.listed,
      cacheHints: Object.freeze({
        ttlMs: 0,
        cacheScope: 'private' as const,
        ...options.cacheHints,
      }),
      inputs: new InputRuns(options.inputRounds ?? options.input, options.limits),
      guards: new Guards(options, logger),
      middleware: new Pipeline(options.middleware),
      tasks: new Tasks(options.limits?.tasks),
      sessionState: new SessionStateKeeper(options.limits?.sessionState),
      skills,
    };
    // Status changes of the tasks running here reach listen streams here and on other instances.
    this.#core.tasks.listen((owner, snapshot) => this.#core.hub.taskChanged(owner, snapshot));
    warnUndescribed(registry, logger);
    checkMiddleware(registry);
    this.tools = new MemberControl(this.#core, ['tool'], 'tools');
    this.prompts = new MemberControl(this.#core, ['prompt'], 'prompts');
    this.resources = new ResourceControl(this.#core);
  }

  /**
   * Adds middleware around every request, inside what was added before (and inside
   * `createServer({ middleware })`). A function `(ctx, next)` wraps every request and
   * notification; an object of hooks (`callTool`, `readResource`, `getPrompt`, `listTools`,
   * `complete`, `request`, `notification`, …) wraps the kinds it names. Returns the server.
   *
   * @example
   * ```ts
   * server.use(async (ctx, next) => {
   *   const started = performance.now();
   *   try {
   *     return await next();
   *   } finally {
   *     console.error(`${ctx.method} ${ctx.member?.name ?? ''} ${(performance.now() - started).toFixed(1)} ms`);
   *   }
   * });
   * server.use({ callTool: (ctx, next) => (ctx.member?.name === 'reset' ? { content: [{ type: 'text', text: 'disabled' }], isError: true } : next()) });
   * ```
   */
  use(...middleware: Middleware[]): this {
    this.#core.middleware.use(...middleware);
    // A new array (not pushed): mounted copies of members are cached per middleware list.
    this.#middleware = Object.freeze([...this.#middleware, ...middleware]);
    // Servers this one is mounted in wrap its members in its middleware: they rebuild.
    for (const parent of this.#parents) parent.#childChanged(undefined);
    return this;
  }

  /**
   * Serves the tools, prompts and resources of `child` as this server's own, live: members the
   * child gains, loses, enables or disables later change this server's lists too, and its
   * clients are told (`list_changed` notifications on legacy sessions, `listen` events under
   * 2026-07-28); `child.resources.updated(uri)` reaches this server's subscribers.
   *
   * Tools and prompts are served under `namespace` + `separator` + their name (see
   * `namespaced()` of `@mcp-fw/core`); resource URIs and URI templates are served unchanged, because a URI is
   * an address that tool results (resource links), subscriptions and the child's own text point
   * at — so two servers offering one URI is a startup error, not a silent rename.
   *
   * Everything about a member travels with it: its handler, schemas, `@Use` middleware, scopes,
   * rate limit, timeout and task mode; the child's server middleware (`use()` and
   * `createServer({ middleware })`) runs around its members' calls, inside this server's. Calls
   * run under this server's settings (its `limits`, `listed`, error masking, input rounds and
   * tasks), so `ctx.elicit`, `ctx.sample` and tasks work in both eras. A name that collides
   * with another member throws a {@link StartupError} naming both; nothing changes then.
   *
   * @example
   * ```ts
   * const weather = createServer({ name: 'weather', version: '1.0.0', providers: [Forecasts] });
   * const app = createServer({ name: 'app', version: '1.0.0', providers: [Notes] });
   * app.mount(weather, { namespace: 'weather' }); // serves weather_get_forecast
   * weather.add(new Alerts()); // app's clients now see weather_alerts too
   * ```
   */
  mount(child: McpFwServer, options: MountOptions): this {
    if (!(child instanceof McpFwServer))
      throw new StartupError(
        'INVALID_MOUNT',
        'mount: the child must be a server made with createServer(...). Fix: server.mount(createServer({ ... }), { namespace: "weather" }).',
      );
    const { namespace, separator = '_' } = options ?? ({} as MountOptions);
    checkNamespace(namespace, separator);
    if (child === this || child.#contains(this))
      throw new StartupError(
        'INVALID_MOUNT',
        `mount: mounting "${child.#core.identity.name}" under "${namespace}" would make a cycle (it already serves this server). Fix: mount each server in one place only.`,
      );
    const at: MountPoint = { namespace, separator };
    const stop = child.#core.hub.watch({
      listChanged: (list) => this.#childChanged(list),
      resourceUpdated: (uri) => this.#core.hub.resourceUpdated(uri),
    });
    this.#mounts.push({ child, at, stop });
    const before = this.#core.registry;
    try {
      this.#recompose();
    } catch (error) {
      this.#mounts.pop();
      stop();
      throw error;
    }
    child.#parents.add(this);
    // Told per member, so each client hears only of members its own lists show.
    announceChanges(this.#core, before, this.#core.registry);
    return this;
  }

  /**
   * Stops serving what {@link mount} mounted from `child` (every namespace it was mounted
   * under); clients are told the lists changed. Returns false when it was not mounted here.
   *
   * @example
   * ```ts
   * app.mount(weather, { namespace: 'weather' });
   * app.unmount(weather); // weather_* tools are gone from app's lists
   * ```
   */
  unmount(child: McpFwServer): boolean {
    const gone = this.#mounts.filter((m) => m.child === child);
    if (gone.length === 0) return false;
    for (const m of gone) {
      m.stop();
      this.#mounts.splice(this.#mounts.indexOf(m), 1);
    }
    child.#parents.delete(this);
    const before = this.#core.registry;
    // Fewer members cannot clash, but a transform of a member now gone no longer applies.
    this.#recompose();
    announceChanges(this.#core, before, this.#core.registry);
    return true;
  }

  /**
   * Serves the tool `name` differently: renamed, redescribed, with arguments hidden (given a
   * fixed value), renamed, redescribed, narrowed or defaulted, or wrapped in a function that
   * calls `forward()` with changed arguments or changes the result. Clients see the transformed
   * input schema; calls are checked against it, mapped back to the original names and checked
   * by the original before its handler runs. Works on this server's own tools and on mounted
   * ones (named with their namespace), and keeps applying when the tool is replaced at runtime.
   * A transform of an unknown tool or argument, or one hiding a required argument without a
   * value, throws a {@link StartupError} naming the tool and the fix.
   *
   * @example
   * ```ts
   * app.transform('weather_get_forecast', {
   *   name: 'forecast',
   *   args: { units: { hide: true, value: 'metric' }, city: { name: 'location' } },
   * });
   * app.transform('search', {
   *   wrap: async (args, { forward }) => forward({ ...args, limit: Math.min(Number(args.limit ?? 10), 20) }),
   * });
   * ```
   */
  transform(name: string, spec: ToolTransform<Context>): this {
    const served = [...this.#core.registry.own.tools, ...this.#mounted.tools].map((t) => t.name);
    checkTransformTarget(name, served);
    this.#reshape(this.#transforms.withTool(name, spec as ToolTransform));
    return this;
  }

  /**
   * Serves only the members `filter` keeps, own and mounted alike: by name, by tag
   * (`_meta.tags`) or by version (`_meta.version`). Filters add up.
   *
   * @example
   * ```ts
   * app.filter({ exclude: { tags: ['admin'] } });
   * app.filter({ include: { names: [/^weather_/, 'notes_search'] } });
   * ```
   */
  filter(filter: MemberFilter): this {
    checkFilter(filter);
    this.#reshape(this.#transforms.withFilter(filter));
    return this;
  }

  /**
   * Also serves resources and prompts as tools, for clients that only call tools:
   * `list_resources` / `read_resource` and `list_prompts` / `get_prompt` (see
   * {@link ExposeAsTools}). They follow runtime changes and reach only members without scopes
   * or middleware of their own (a call through them would skip both).
   *
   * @example
   * ```ts
   * app.exposeAsTools({ resources: true, prompts: true });
   * ```
   */
  exposeAsTools(expose: ExposeAsTools): this {
    const tools = membersAsTools(expose ?? {}, () => this.#core.registry);
    this.#reshape(this.#transforms.withExtraTools(() => tools));
    return this;
  }

  /**
   * Replaces a large `tools/list` with `search_tools` (a task in words → the best tools, ranked
   * by BM25 over names, descriptions and argument names, with their input schemas) and
   * `call_tool` (name + arguments → the tool, validated by its own schemas), plus the tools
   * named in `alwaysVisible`. Own and mounted tools alike, after transforms and filters; it
   * follows runtime changes. A tool that declares OAuth scopes or middleware of its own stays
   * listed as itself, so nothing reaches it around its guards. See {@link ToolSearch}.
   *
   * @example
   * ```ts
   * app.mount(github, { namespace: 'github' });
   * app.searchTools({ alwaysVisible: ['whoami'], maxResults: 5 });
   * // tools/list: whoami, search_tools, call_tool
   * ```
   */
  searchTools(search: ToolSearch = {}): this {
    checkToolSearch(
      search,
      this.#core.registry.tools.map((t) => t.name),
    );
    this.#checkHiding('searchTools');
    this.#reshape(this.#transforms.withSearch(search));
    return this;
  }

  /**
   * Code mode (experimental): replaces `tools/list` with one `run_script` tool (plus the tools
   * named in `alwaysVisible`) whose description declares the other tools as typed async
   * functions; a model-written script calls them in `sandbox` — `quickJsSandbox()` from
   * `@mcp-fw/codemode`, QuickJS in WebAssembly — within limits on time, memory, tool calls and
   * output, each refused as an `isError` result. Own and mounted tools alike, after transforms
   * and filters; tools with scopes or middleware of their own stay listed as themselves. See
   * {@link CodeMode}.
   *
   * @example
   * ```ts
   * import { quickJsSandbox } from '@mcp-fw/codemode';
   * app.codeMode({ sandbox: quickJsSandbox({ timeoutMs: 5000 }), maxCalls: 20 });
   * // tools/list: run_script
   * ```
   */
  codeMode(codeMode: CodeMode): this {
    checkCodeMode(
      codeMode,
      this.#core.registry.tools.map((t) => t.name),
    );
    this.#checkHiding('codeMode');
    this.#reshape(this.#transforms.withCodeMode(codeMode));
    return this;
  }

  #checkHiding(option: 'searchTools' | 'codeMode'): void {
    const other = this.#transforms.hiding;
    if (other !== undefined && other !== option)
      throw new StartupError(
        'INVALID_TRANSFORM',
        `server.${option}: this server already serves its tools through server.${other}, and the two do not combine (each hides the tools the other would reach). Fix: call one of them; a script in code mode reaches every tool, search finds them one by one.`,
      );
  }

  #middleware: readonly Middleware[] = Object.freeze([]);
  readonly #mounts: Mount[] = [];
  readonly #parents = new Set<McpFwServer>();
  #mounted: Members = EMPTY_MEMBERS;
  #transforms = new Transforms();

  #contains(server: McpFwServer): boolean {
    return this.#mounts.some((m) => m.child === server || m.child.#contains(server));
  }

  #reshape(next: Transforms): void {
    const before = this.#core.registry;
    const previous = this.#transforms;
    this.#transforms = next;
    try {
      this.#recompose();
    } catch (error) {
      this.#transforms = previous;
      throw error;
    }
    announceChanges(this.#core, before, this.#core.registry);
  }

  /** This server's registry with the mounted members as they are now (throws on a clash). */
  #composed(override?: { child: McpFwServer; registry: Registry }): {
    registry: Registry;
    mounted: Members;
  } {
    const parts = this.#mounts.map(({ child, at }) =>
      mountedMembers(
        override?.child === child ? override.registry : child.#core.registry,
        at,
        child.#middleware,
      ),
    );
    const mounted: Members = {
      tools: parts.flatMap((p) => p.tools),
      prompts: parts.flatMap((p) => p.prompts),
      resources: parts.flatMap((p) => p.resources),
      templates: parts.flatMap((p) => p.templates),
    };
    const transforms = this.#transforms;
    const registry = this.#core.registry.withComposition({
      mounted,
      shape: transforms.empty ? (members) => members : (members) => transforms.apply(members),
    });
    return { registry, mounted };
  }

  #recompose(): void {
    const { registry, mounted } = this.#composed();
    this.#core.registry = registry;
    this.#mounted = mounted;
  }

  // A mounted child changed (`list`), or its middleware did (undefined): rebuild and tell.
  #childChanged(list: ListName | undefined): void {
    const before = this.#core.registry;
    try {
      this.#recompose();
    } catch (error) {
      // The change already happened in the child (enable() of a member whose name clashes here):
      // this server keeps serving what it served, and says why.
      this.#core.logger.error(
        `a mounted server changed, but ${this.#core.identity.name} cannot serve the change; it keeps its previous members`,
        error,
      );
      return;
    }
    // A change the members do not show (`resources.changed()` in the child) goes to everyone.
    if (list) {
      if (!announceChanges(this.#core, before, this.#core.registry))
        this.#core.hub.listChanged(list);
    } else for (const parent of this.#parents) parent.#childChanged(undefined);
  }

  /**
   * What the HTTP endpoint's Server Card says of this server (SEP-2127); undefined without a
   * `registryName` and a `description`, and then no card is served.
   */
  get serverCard(): ServerCardData | undefined {
    return this.#card;
  }

  /** The environment variables the server declared it reads ({@link ServerOptions.settings}). */
  get settings(): Readonly<Record<string, ServerSetting>> {
    return this.#settings;
  }

  /** Connections being served now, over every transport (closed ones are let go). */
  get connectionCount(): number {
    return this.#core.hub.size;
  }

  /** The registry being served now (replaced, never mutated, by runtime changes). */
  get registry(): Registry {
    return this.#core.registry;
  }

  /**
   * Adds the decorated members of more providers while serving; names are checked as at
   * startup, and clients are told which lists changed.
   */
  add(...providers: Provider[]): void {
    const before = this.#core.registry;
    const { registry, added } = before.withProviders(providers, this.#schemas);
    // A name that would clash where this server is mounted fails here, before anything changes.
    for (const parent of this.#parents) parent.#composed({ child: this, registry });
    this.#core.registry = registry;
    warnUndescribed(added, this.#core.logger);
    checkMiddleware(added);
    announceChanges(this.#core, before, registry);
  }

  /**
   * Serves one client over `channel` until it closes. Transports call this; `mode` says how
   * the connection's protocol era is decided (stdio pins it on the first exchange).
   */
  connect(channel: Channel, mode?: EraMode): ServerConnection {
    return new ServerConnection(this.#core, channel, mode);
  }

  /**
   * Installs (or, with undefined, removes) the hook offered each member call before dispatch:
   * what it takes skips this server's middleware, guardrails and argument checks, so install
   * one only where none apply to those calls. `@mcp-fw/proxy` passes calls on with it.
   *
   * @example
   * ```ts
   * server.passThrough({ take: (call) => (call.method === 'tools/call' ? forward(call) : undefined) });
   * ```
   * @internal
   */
  passThrough(hook: PassThrough | undefined): void {
    this.#core.passThrough = hook;
  }

  /**
   * The guardrails, for the transports' composition roots (session binding, audit of refusals).
   * @internal
   */
  get guards(): Guards {
    return this.#core.guards;
  }

  /**
   * Shares this server's cluster-wide state with the other instances of it through `store`:
   * list changes and resource updates reach their clients (legacy sessions and `listen`
   * streams), 2026-07-28 input rounds resume on any instance and stay single-use across all,
   * rate limits count for all, and tasks are answered for by any instance (their work runs on
   * the one that started them; a task whose instance stopped reads failed). The HTTP entry points call it when given a `store`, and {@link unshare} when closed; options
   * given to `createServer` (`inputRounds.requestStateKey`, `inputRounds.usedRounds`,
   * `limits.rateLimitStore`) win over the store's. Resolves once this instance hears the others.
   *
   * @example
   * ```ts
   * const store = await redisStore(process.env.REDIS_URL!);
   * await server.share(store); // serveHttp(server, { store }) does this for you
   * ```
   */
  async share(store: SharedStore): Promise<void> {
    if (this.#shared === store) return;
    this.#shared = store;
    this.#core.inputs.share(store.usedRounds, () => store.requestStateKey);
    this.#core.guards.shareRateLimits(store.rateLimits);
    this.#core.sessionState.share(store.sessionState);
    this.#stopHub?.();
    const stopHub = await this.#core.hub.share(store.bus, store.nodeId);
    // Unshared meanwhile (a bare handler closed at once): nothing may keep running.
    if (this.#shared === undefined) return stopHub();
    this.#stopHub = stopHub;
    await this.#core.tasks.share(store.tasks, store.bus, store.nodeId);
    if (this.#shared === undefined) this.#core.tasks.unshare();
  }

  #shared?: SharedStore;
  #stopHub?: () => void;

  /**
   * Stops sharing through the store {@link share} was given: this instance's task beat and its
   * subscriptions on the store's bus (server events, messages for its tasks) end, so the other
   * instances read it as gone once the beat's time-to-live has passed, and the tasks it left
   * unfinished as failed. Closing what `serveHttp`/`createHttpHandler` returned calls it; the
   * store itself stays open (it is the caller's to close).
   *
   * @example
   * ```ts
   * await server.share(store);
   * // … serve …
   * server.unshare();
   * await store.close();
   * ```
   */
  unshare(): void {
    if (!this.#shared) return;
    this.#shared = undefined;
    this.#stopHub?.();
    this.#stopHub = undefined;
    this.#core.tasks.unshare();
    this.#core.sessionState.unshare();
  }

  /**
   * Lets middleware send what it buffered (the `flush` hook: telemetry's spans and metrics)
   * before the process ends; mounted servers' middleware too. The transports call it when they stop serving — stdin closed,
   * SIGINT or SIGTERM, or a handle's `close()` — after the calls in flight have finished.
   * Waits at most `timeoutMs`; a hook that fails or takes longer is reported on the `logger`.
   *
   * @example
   * ```ts
   * server.use(telemetry());
   * // … a test that served a few calls in process …
   * await server.flush(); // the spans and metrics are at the exporter
   * ```
   */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    // A mounted server's middleware ran around calls served here: it flushes with this server.
    const children = Promise.all(this.#mounts.map(({ child }) => child.flush(timeoutMs)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
      // A flush that hangs must not keep the process alive on its own.
      (timer as { unref?: () => void }).unref?.();
    });
    const outcome = await Promise.race([this.#core.middleware.flush(), late]);
    clearTimeout(timer);
    if (outcome === 'late')
      this.#core.logger.warn(
        `middleware flush took longer than ${timeoutMs} ms: what it had not sent by then may be lost (is the telemetry exporter's endpoint reachable?)`,
      );
    else
      for (const error of outcome)
        this.#core.logger.error('middleware flush failed: what it buffered may be lost', error);
    await children;
  }

  /** Ends every open `subscriptions/listen` stream with a final result (before shutting down). */
  endSubscriptions(): void {
    this.#core.hub.endSubscriptions();
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
 * serveStdio(createServer({ name: 'greeter', version: '1.0.0', providers: [Greeter] }));
 * ```
 */
export function createServer(options: ServerOptions): McpFwServer {
  return new McpFwServer(options);
}

/**
 * @deprecated Use {@link McpFwServer} (or {@link createServer}). `McpServer` is also the
 * official SDK's class name, so it read as theirs.
 */
export const McpServer = McpFwServer;
/** @deprecated Use {@link McpFwServer}. */
export type McpServer = McpFwServer;

// Once, when members are registered (not per connection), on the logger: never stdout.
function warnUndescribed(members: Members, logger: Logger): void {
  for (const warning of undescribedMembers(members)) logger.warn(warning);
}

// `@Use` on members is checked once, when they are registered, as their schemas are.
function checkMiddleware(members: Members): void {
  Pipeline.checkMembers([
    ...members.tools,
    ...members.prompts,
    ...members.resources,
    ...members.templates,
  ]);
}

function providerList(providers: unknown): readonly Provider[] {
  if (providers === undefined) return [];
  if (!Array.isArray(providers)) {
    throw new StartupError(
      'INVALID_PROVIDER',
      `createServer: providers must be an array of classes or instances, got ${providers === null ? 'null' : typeof providers}. Write providers: [MyTools].`,
    );
  }
  return providers;
}

// The MCP registry's and the Server Card's rules for the metadata they carry.
const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Metadata the card, `serverInfo` and `server.json` carry, checked at startup. */
function checkMetadata(options: ServerOptions): void {
  const { registryName, description, icons, websiteUrl } = options;
  const bad = (message: string) => new StartupError('CONFLICTING_OPTIONS', message);
  if (
    registryName !== undefined &&
    (!REGISTRY_NAME.test(registryName) || registryName.length < 3 || registryName.length > 200)
  )
    throw bad(
      `registryName "${registryName}" must be reverse-DNS with exactly one slash, 3-200 characters (e.g. "io.github.acme/weather"), as the MCP registry and Server Cards require`,
    );
  if (description !== undefined && (description.length === 0 || description.length > 100))
    throw bad(
      `description must be 1-100 characters (it has ${description.length}): the Server Card and the MCP registry allow no more; put the details in instructions`,
    );
  for (const [what, url] of [
    ...(icons ?? []).map((icon, i) => [`icons[${i}].src`, icon.src] as const),
    ['websiteUrl', websiteUrl] as const,
  ]) {
    if (url === undefined) continue;
    let scheme = '';
    try {
      scheme = new URL(url).protocol;
    } catch {}
    if (!['https:', 'http:', 'data:'].includes(scheme))
      throw bad(`${what} "${url.slice(0, 80)}" must be an https: (or data:) URI`);
  }
}
