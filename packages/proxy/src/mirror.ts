import type {
  CallOptions,
  McpClient,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool as UpstreamTool,
} from '@mcp-fw/client';
import { REQUIRED_CAPABILITIES_META } from '@mcp-fw/core/transport';
import {
  MissingCapabilityError,
  Prompt as PromptDecorator,
  Resource as ResourceDecorator,
  Tool as ToolDecorator,
  type Context,
  type McpFwServer,
  type MiddlewareContext,
  type PromptOptions,
  type ResourceOptions,
  type TaskMode,
  type TaskOptions,
  type ToolOptions,
} from '@mcp-fw/core';
import { callerOf, fileBecomeTask, upstreamTaskCreated } from './caller.js';
import { memberName } from './naming.js';
import { checked, withoutEnvelope } from './results.js';

/** The 2026-07-28 tasks extension's identifier (capabilities.extensions). */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
import type { Upstream } from './upstream.js';

type Kind = 'tool' | 'prompt' | 'resource';

/** How the proxy runs one of an upstream's tools as a task (`UpstreamOptions.tasks`). */
export type ProxyTask = TaskMode | TaskOptions;

/** How one proxied call runs as a task, as its handler needs to know. */
interface CallTask {
  /** The upstream runs it as its task (the proxy's task follows it), else the proxy does. */
  readonly upstream: boolean;
  /** Questions before the task are input rounds of the request (a deferred tool). */
  readonly askFirst: boolean;
}

/** One member served for the upstream: its key in the server, a fingerprint, its provider. */
interface Entry {
  readonly kind: Kind;
  /** The tool or prompt name, the URI or the URI template, as served. */
  readonly key: string;
  readonly fingerprint: string;
  readonly provider: object;
  /** The upstream's own name of the tool or prompt, or the resource's URI. */
  readonly upstreamName: string;
  /** `tools/call "name"`, for messages. */
  readonly what: string;
}

/** A member the mirror serves, as the pass-through reads it (see pass-through.ts). */
export type MirroredMember = Pick<Entry, 'kind' | 'key' | 'upstreamName' | 'what'>;

type Decorate = (target: object, key: string, descriptor: PropertyDescriptor) => void;

/**
 * Mirrors one upstream's tools, resources, templates and prompts into the proxy's server:
 * each a member whose handler forwards to the upstream. Read again whenever the upstream says a
 * list changed (coalesced, so a flood of notifications costs one read at a time) or comes back;
 * only what changed is replaced.
 */
export class Mirror {
  readonly #server: McpFwServer;
  readonly #upstream: Upstream;
  readonly #namespace: string | undefined;
  readonly #separator: string;
  readonly #listed: () => void;
  readonly #tasks: Readonly<Record<string, ProxyTask>>;
  readonly #unknownTasks = new Set<string>();
  #served = new Map<string, Entry>();
  #running?: Promise<void>;
  #again = false;
  #timer?: ReturnType<typeof setTimeout>;
  /** How many times the upstream's lists were read (for tests of floods). */
  reads = 0;

  constructor(
    server: McpFwServer,
    upstream: Upstream,
    namespace: string | undefined,
    separator: string,
    listed: () => void = () => {},
    tasks: Readonly<Record<string, ProxyTask>> = {},
  ) {
    this.#tasks = tasks;
    this.#server = server;
    this.#upstream = upstream;
    this.#namespace = namespace;
    this.#separator = separator;
    this.#listed = listed;
  }

  /** Reads the upstream's lists soon (once for any number of calls meanwhile). */
  schedule(): void {
    if (this.#timer || this.#upstream.state !== 'up') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.refresh();
    }, 25);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Reads the upstream's lists now; resolves when the server serves them. */
  refresh(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#read();
      } while (this.#again);
    })().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** Removes every member of this upstream from the server. */
  clear(): void {
    for (const entry of this.#served.values()) this.#remove(entry);
    this.#served.clear();
    clearTimeout(this.#timer);
  }

  /** The members served now (the latest list read that the server took). */
  members(): Iterable<MirroredMember> {
    return this.#served.values();
  }

  /** The served names of this upstream's members (tools and prompts) and URIs. */
  names(): string[] {
    return [...this.#served.values()].map((e) => e.key);
  }

  async #read(): Promise<void> {
    let client: McpClient;
    try {
      client = await this.#upstream.primary();
    } catch {
      return; // down: its members stay, and each call says why it fails
    }
    this.reads++;
    const caps = client.server.capabilities as Record<string, unknown>;
    const warn = this.#upstream.settings.warn;
    const name = this.#upstream.settings.name;
    const listed = <T>(has: unknown, list: () => Promise<T[]>, what: string): Promise<T[]> =>
      has
        ? list().catch((error: unknown) => {
            warn(
              `upstream "${name}": ${what} failed (${error instanceof Error ? error.message : String(error)}); kept what was served`,
            );
            throw error;
          })
        : Promise.resolve([]);
    let lists: [UpstreamTool[], Resource[], ResourceTemplate[], Prompt[]];
    try {
      lists = await Promise.all([
        listed(caps.tools, () => client.listTools(), 'tools/list'),
        listed(caps.resources, () => client.listResources(), 'resources/list'),
        listed(caps.resources, () => client.listResourceTemplates(), 'resources/templates/list'),
        listed(caps.prompts, () => client.listPrompts(), 'prompts/list'),
      ]);
    } catch {
      return;
    }
    // A `tasks` entry naming no tool of the upstream is a typo, or a tool it dropped: say so once.
    for (const tool of Object.keys(this.#tasks))
      if (!this.#unknownTasks.has(tool) && !lists[0].some((t) => t.name === tool)) {
        this.#unknownTasks.add(tool);
        warn(
          `upstream "${name}" has no tool "${tool}" (named in its tasks setting); its tools: ${lists[0].map((t) => t.name).join(', ') || 'none'}`,
        );
      }
    const completes = caps.completions !== undefined;
    const next = new Map<string, Entry>();
    const add = (entry: Entry) => next.set(`${entry.kind}\0${entry.key}`, entry);
    for (const tool of lists[0]) add(this.#tool(tool));
    for (const resource of lists[1]) add(this.#resource(resource));
    for (const template of lists[2]) add(this.#template(template, completes));
    for (const prompt of lists[3]) add(this.#prompt(prompt, completes));
    this.#apply(next);
    this.#listed();
    await this.#upstream.watchResources(lists[1].map((r) => r.uri));
  }

  #apply(next: Map<string, Entry>): void {
    const warn = this.#upstream.settings.warn;
    for (const [id, entry] of this.#served)
      if (next.get(id)?.fingerprint !== entry.fingerprint) {
        this.#remove(entry);
        this.#served.delete(id);
      }
    const added = [...next].filter(([id]) => !this.#served.has(id));
    if (added.length === 0) return;
    try {
      this.#server.add(...added.map(([, e]) => e.provider));
      for (const [id, entry] of added) this.#served.set(id, entry);
    } catch {
      // One bad member (a name core refuses, a schema it cannot compile, a collision with another
      // upstream) must not keep the others out: add them one by one and say which failed.
      for (const [id, entry] of added) {
        try {
          this.#server.add(entry.provider);
          this.#served.set(id, entry);
        } catch (error) {
          warn(
            `upstream "${this.#upstream.settings.name}": its ${entry.kind} "${entry.key}" is not served: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    }
  }

  #remove(entry: Entry): void {
    const control =
      entry.kind === 'tool'
        ? this.#server.tools
        : entry.kind === 'prompt'
          ? this.#server.prompts
          : this.#server.resources;
    control.remove(entry.key);
  }

  #tool(tool: UpstreamTool): Entry {
    const key = memberName(this.#namespace, tool.name, this.#separator);
    const what = `tools/call "${tool.name}"`;
    const { task, call: taskCall } = this.#taskOf(tool);
    const options = defined({
      name: key,
      title: tool.title,
      description: tool.description,
      input: plainSchema(tool.inputSchema),
      output: tool.outputSchema && plainSchema(tool.outputSchema),
      annotations: tool.annotations,
      icons: tool.icons,
      _meta: tool._meta,
      task,
    }) as ToolOptions;
    const provider = member(
      ToolDecorator(options) as Decorate,
      `tool ${key}`,
      (args: unknown, ctx: Context) =>
        this.#forward('tools/call', what, ctx, args, async (client, options) =>
          refusedFor(
            await client.callTool(tool.name, args as Record<string, unknown>, {
              ...options,
              ...tasked(ctx, callerOf(args), taskCall),
            }),
          ),
        ),
    );
    return {
      kind: 'tool',
      key,
      fingerprint: JSON.stringify([tool, this.#tasks[tool.name]]),
      provider,
      upstreamName: tool.name,
      what,
    };
  }

  /**
   * How the proxy's tool may run as a task. As the upstream's, where it says (2025-11-25
   * `execution.taskSupport`; `optional` for every tool of an upstream that offers the 2026-07-28
   * tasks extension, whose tools/list does not say which): always deferred in core's terms, the
   * call becoming a task downstream when the upstream made one of it (see {@link tasked}).
   * Else, where `tasks` names the tool, the proxy runs the upstream call as a task of its own
   * (an upstream without tasks: a 2025-06-18 server, or one without the capability).
   */
  #taskOf(tool: UpstreamTool): { task: ToolOptions['task']; call: CallTask | undefined } {
    const own = taskOptions(this.#tasks[tool.name]);
    const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
    const caps = this.#upstream.capabilitiesNow();
    const extensions = caps?.extensions as Record<string, unknown> | undefined;
    const mode =
      support === 'optional' || support === 'required'
        ? support
        : support === undefined && extensions?.[TASKS_EXTENSION] !== undefined
          ? 'optional'
          : undefined;
    const askFirst = own?.deferred === true;
    if (mode !== undefined)
      return {
        task: { ...own, mode, deferred: true },
        call: { upstream: true, askFirst },
      };
    if (own === undefined || own.mode === 'forbidden') return { task: undefined, call: undefined };
    return { task: own, call: { upstream: false, askFirst } };
  }

  #resource(resource: Resource): Entry {
    const what = `resources/read "${resource.uri}"`;
    const options = defined({
      name: resource.name,
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
      size: resource.size,
      annotations: resource.annotations,
      icons: resource.icons,
      _meta: resource._meta,
    }) as ResourceOptions;
    const provider = member(
      ResourceDecorator(resource.uri, options) as unknown as Decorate,
      `resource ${resource.uri}`,
      (args: unknown, ctx: Context) => this.#read1(resource.uri, what, ctx, args),
    );
    return {
      kind: 'resource',
      key: resource.uri,
      fingerprint: JSON.stringify(resource),
      provider,
      upstreamName: resource.uri,
      what,
    };
  }

  #template(template: ResourceTemplate, completes: boolean): Entry {
    const variables = [...template.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) =>
      m[1].split(',').map((v) => v.replace(/[*]|:\d+$/g, '')),
    );
    const options = defined({
      name: template.name,
      title: template.title,
      description: template.description,
      mimeType: template.mimeType,
      annotations: template.annotations,
      icons: template.icons,
      _meta: template._meta,
      complete: completes
        ? Object.fromEntries(
            variables.map((v) => [
              v,
              this.#completer({ type: 'ref/resource', uri: template.uriTemplate }, v),
            ]),
          )
        : undefined,
    }) as ResourceOptions;
    const provider = member(
      ResourceDecorator(template.uriTemplate, options) as unknown as Decorate,
      `template ${template.uriTemplate}`,
      (args: unknown, ctx: Context) => {
        const uri = String(callerOf(args)?.params?.uri ?? '');
        return this.#read1(uri, `resources/read "${uri}"`, ctx, args);
      },
    );
    return {
      kind: 'resource',
      key: template.uriTemplate,
      fingerprint: JSON.stringify(template),
      provider,
      // Never taken by the pass-through: a template is no resource of the server's.
      upstreamName: template.uriTemplate,
      what: `resources/read "${template.uriTemplate}"`,
    };
  }

  #read1(uri: string, what: string, ctx: Context, args: unknown): Promise<unknown> {
    return this.#forward('resources/read', what, ctx, args, (client, call) =>
      client.readResource(uri, call),
    );
  }

  /** One request to the upstream for the caller behind `args`, its answer checked by `method`. */
  #forward<T>(
    method: string,
    what: string,
    ctx: Context,
    args: unknown,
    send: (client: McpClient, call: CallOptions) => Promise<T>,
  ): Promise<T> {
    const upstream = this.#upstream;
    return upstream.forward(what, ctx, callerOf(args), async (client, call) =>
      withoutEnvelope(checked(upstream.settings.name, method, what, await send(client, call))),
    );
  }

  #prompt(prompt: Prompt, completes: boolean): Entry {
    const key = memberName(this.#namespace, prompt.name, this.#separator);
    const what = `prompts/get "${prompt.name}"`;
    const args = prompt.arguments ?? [];
    const input = {
      type: 'object',
      properties: Object.fromEntries(
        args.map((a) => [a.name, defined({ type: 'string', description: a.description })]),
      ),
      required: args.filter((a) => a.required).map((a) => a.name),
    };
    const options = defined({
      name: key,
      title: prompt.title,
      description: prompt.description,
      input,
      icons: prompt.icons,
      _meta: prompt._meta,
      complete: completes
        ? Object.fromEntries(
            args.map((a) => [
              a.name,
              this.#completer({ type: 'ref/prompt', name: prompt.name }, a.name),
            ]),
          )
        : undefined,
    }) as PromptOptions;
    const provider = member(
      PromptDecorator(options) as Decorate,
      `prompt ${key}`,
      (values: unknown, ctx: Context) =>
        this.#forward('prompts/get', what, ctx, values, (client, call) =>
          client.getPrompt(prompt.name, values as Record<string, string>, call),
        ),
    );
    return {
      kind: 'prompt',
      key,
      fingerprint: JSON.stringify(prompt),
      provider,
      upstreamName: prompt.name,
      what,
    };
  }

  #completer(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: string,
  ) {
    const upstream = this.#upstream;
    return async (value: string, context: { arguments: Record<string, string> }) => {
      const client = await upstream.primary();
      const what = `completion/complete of "${argument}"`;
      const result = checked(
        upstream.settings.name,
        'completion/complete',
        what,
        await client.complete(
          ref,
          { name: argument, value },
          { context, timeoutMs: upstream.settings.timeoutMs },
        ),
      );
      return result.completion.values;
    };
  }
}

/**
 * The task options of a forwarded call. Where the upstream runs the tool as a task, it is asked
 * for one only when the caller can take one (a 2026-07-28 request declaring the tasks
 * extension, a 2025-11-25 call asking with `params.task`), so that a `required` task tool
 * refuses a caller who cannot, as it would directly; when the upstream answers with a task, the
 * caller's call becomes a task too (`ctx.runAsTask()`), followed to the upstream's result, and
 * its status message is passed on. Where the proxy runs the task itself, the upstream gets a
 * plain call (core made the proxy's call a task already, or a deferred one becomes a task once
 * the caller answered a question).
 */
function tasked(
  ctx: Context,
  mctx: MiddlewareContext | undefined,
  call: CallTask | undefined,
): Pick<CallOptions, 'task' | 'onTask'> {
  if (call === undefined) return { task: false };
  const become = () => ctx.runAsTask().catch(() => false);
  if (!call.upstream) {
    if (call.askFirst) fileBecomeTask(ctx, become, { askFirst: true });
    return { task: false };
  }
  const caps = ctx.client.capabilities as { extensions?: Record<string, unknown> };
  const takes =
    mctx?.era === 'modern'
      ? caps.extensions?.[TASKS_EXTENSION] !== undefined
      : (mctx?.params as { task?: unknown } | undefined)?.task !== undefined;
  if (!takes) return { task: false };
  fileBecomeTask(ctx, become, { askFirst: call.askFirst });
  let step = 0;
  return {
    onTask: (task) => {
      upstreamTaskCreated(ctx);
      // Inside a task, progress sets the task's status message (what a polling client reads).
      if (task.statusMessage !== undefined && mctx?.meta?.progressToken === undefined)
        ctx.progress(++step, undefined, task.statusMessage);
    },
  };
}

/** A `tasks` entry as core's task options (a mode alone is `{ mode }`). */
function taskOptions(value: ProxyTask | undefined): TaskOptions | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? { mode: value } : { mode: 'optional', ...value };
}

/**
 * An mcp-fw legacy upstream's "the client lacks a capability" result, as the refusal of the
 * caller's era (-32021 for a 2026-07-28 caller, the same `isError` result for a legacy one).
 */
export function refusedFor<T>(result: T): T {
  const r = result as { isError?: unknown; _meta?: Record<string, unknown>; content?: unknown };
  const required = r?.isError === true ? r._meta?.[REQUIRED_CAPABILITIES_META] : undefined;
  if (typeof required !== 'object' || required === null || Array.isArray(required)) return result;
  const first = Array.isArray(r.content) ? (r.content[0] as { text?: unknown }) : undefined;
  throw new MissingCapabilityError(
    typeof first?.text === 'string' ? first.text : 'The upstream needs a client capability',
    required as Record<string, unknown>,
  );
}

/** A provider with one decorated method: how core is told about a member built at runtime. */
function member(
  decorate: Decorate,
  label: string,
  handler: (args: unknown, ctx: Context) => unknown,
): object {
  const Provider = class {};
  Object.defineProperty(Provider, 'name', { value: `Proxied ${label}` });
  const descriptor = { value: handler, writable: true, configurable: true, enumerable: false };
  Object.defineProperty(Provider.prototype, 'forward', descriptor);
  decorate(Provider.prototype, 'forward', descriptor);
  return new Provider();
}

/**
 * The schema as JSON Schema: a 2020-12 dialect marker (MCP's default dialect) is kept, as the
 * upstream declared it; an older one (a draft-07 upstream's) is dropped, so that the schema is
 * read in the default dialect like every other the proxy serves.
 */
function plainSchema(schema: object): Record<string, unknown> {
  const { $schema: dialect, ...rest } = schema as Record<string, unknown>;
  return dialect === 'https://json-schema.org/draft/2020-12/schema'
    ? { $schema: dialect, ...rest }
    : rest;
}

function defined<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
