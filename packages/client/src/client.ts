import { listen, type Change, type ListenFilter, type Listening } from './listen.js';
import { OutputChecks } from './output-schema.js';
import { Skills } from './skills.js';
import { createdTask, followTask } from './tasks.js';
import type { NotificationListener, Session } from './session.js';
import { headerAnnotationProblem, paramHeaders } from './tool-headers.js';
import { StreamableHttpTransport } from './transports/streamable-http.js';
import type { TransportKind } from './transports/transport.js';
import type {
  CallOptions,
  CallToolResult,
  CompleteResult,
  CompletionRef,
  Era,
  GetPromptResult,
  InputHandlers,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerDescription,
  Tool,
} from './types.js';

/** Options of {@link McpClient} that outlive the connection step. */
export interface ClientSettings {
  readonly validateOutput: boolean;
  /** The default request timeout, in ms. */
  readonly timeoutMs: number;
  readonly onWarning: (message: string) => void;
  /** Answers a 2026-07-28 task's questions (`tasks/update`). */
  readonly handlers: InputHandlers;
}

/**
 * A connected MCP client (made by {@link connect}): the same calls in either era, on any
 * transport. Lists come as async iterators that fetch page after page (`tools()`), or whole
 * (`listTools()`); every call takes an `AbortSignal`, a timeout and a progress callback.
 *
 * @example
 * ```ts
 * const client = await connect('http://127.0.0.1:3000/mcp');
 * for await (const tool of client.tools()) console.log(tool.name);
 * const result = await client.callTool('add', { a: 1, b: 2 }, { timeoutMs: 5000 });
 * await client.close();
 * ```
 */
export class McpClient {
  readonly #session: Session;
  readonly #settings: ClientSettings;
  readonly #server: ServerDescription;
  readonly #tools = new Map<string, Tool>();
  readonly #outputs = new OutputChecks();
  #toolsListed = false;
  #skills?: Skills;

  /** @internal Made by {@link connect}. */
  constructor(session: Session, server: ServerDescription, settings: ClientSettings) {
    this.#session = session;
    this.#server = server;
    this.#settings = settings;
    session.listen((method) => {
      if (method === 'notifications/tools/list_changed') {
        this.#tools.clear();
        this.#toolsListed = false;
      }
    });
    const transport = session.transport;
    if (transport instanceof StreamableHttpTransport)
      transport.headersFor = (message) => {
        if (message.method !== 'tools/call') return undefined;
        const tool = this.#tools.get(String(message.params?.name));
        return tool && paramHeaders(tool, message.params?.arguments as Record<string, unknown>);
      };
  }

  /** `legacy` (an `initialize` session) or `modern` (stateless 2026-07-28). */
  get era(): Era {
    return this.#session.era as Era;
  }

  /** The negotiated protocol revision, e.g. `2025-11-25` or `2026-07-28`. */
  get protocolVersion(): string {
    return this.#session.protocolVersion as string;
  }

  /** The transport in use (`streamable-http`, `http+sse`, `stdio`, `in-memory`). */
  get transport(): TransportKind {
    return this.#session.transport.kind;
  }

  /** The server's name, version, capabilities and instructions. */
  get server(): ServerDescription {
    return this.#server;
  }

  /**
   * The server's skills (the Skills extension, SEP-2640): `list()`, `get(uri)`, and `read()`,
   * which verifies each file against the skill's entry before returning it.
   *
   * @example
   * ```ts
   * const { skills } = await client.skills.list();
   * const { frontmatter, body } = await client.skills.read(skills[0]);
   * ```
   */
  get skills(): Skills {
    this.#skills ??= new Skills(
      (method, params, options) => this.#session.request(method, params, options),
      this.#server,
    );
    return this.#skills;
  }

  /**
   * Calls a tool. An `isError` result is returned, not thrown (it is the tool's answer); a
   * protocol error rejects with a `JsonRpcError`. When the tool listed an `outputSchema`, its
   * `structuredContent` is checked against it (an {@link OutputSchemaError} names the tool and
   * the JSON path); the client lists the tools once before its first call to know them.
   *
   * @example
   * ```ts
   * const result = await client.callTool('add', { a: 1, b: 2 }, {
   *   signal: AbortSignal.timeout(10_000),
   *   onProgress: ({ progress, total }) => console.error(`${progress}/${total}`),
   * });
   * console.log(result.content[0].text);
   * ```
   */
  callTool(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    // Promise callbacks rather than one async function: a call without a listing to make
    // first, a task or an output schema allocates no async frame here.
    try {
      const mirrors = this.era === 'modern' && this.transport === 'streamable-http';
      const legacyTasks = this.era === 'legacy' && options.task !== false && this.#legacyTasks();
      if (
        (this.#settings.validateOutput || mirrors || legacyTasks) &&
        !this.#toolsListed &&
        !this.#tools.has(name) &&
        this.#server.capabilities.tools
      )
        return this.#listThenCall(name, args, options, legacyTasks);
      return this.#call(name, args, options, legacyTasks);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #listThenCall(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallOptions,
    legacyTasks: boolean,
  ): Promise<CallToolResult> {
    // Knowing the schemas is worth a round trip, not a failed call: a listing that fails
    // leaves the call unchecked (and unmirrored), with a warning.
    await this.listTools({ signal: options.signal, timeoutMs: options.timeoutMs }).catch(
      (error: unknown) => {
        if (options.signal?.aborted) throw error;
        this.#toolsListed = true;
        this.#settings.onWarning(
          `tools/list failed before calling "${name}", so its output is not checked: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    return this.#call(name, args, options, legacyTasks);
  }

  #call(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallOptions,
    legacyTasks: boolean,
  ): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    const params: Record<string, unknown> =
      args === undefined ? { name } : { name, arguments: args };
    // 2025-11-25: the client asks for a task, where the tool allows one (2026-07-28: the server
    // decides, by the tasks extension the envelope declares).
    if (legacyTasks && taskSupport(tool) !== 'forbidden') params.task = {};
    return this.#session.request<CallToolResult>('tools/call', params, options).then((answer) => {
      const task = createdTask(answer);
      const check = this.#settings.validateOutput && tool?.outputSchema !== undefined;
      return task || check ? this.#finish(answer, task, check ? tool : undefined, options) : answer;
    });
  }

  /** A created task followed to its result; the result checked against the tool's output schema. */
  async #finish(
    answer: CallToolResult,
    task: ReturnType<typeof createdTask>,
    checked: Tool | undefined,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const result = task
      ? await followTask(this.#session, task, this.#settings.handlers, options)
      : answer;
    if (checked) await this.#outputs.check(checked, result);
    return result;
  }

  /** Whether the legacy server runs `tools/call` as tasks (2025-11-25 `capabilities.tasks`). */
  #legacyTasks(): boolean {
    const tasks = this.#server.capabilities.tasks as
      | { requests?: { tools?: { call?: unknown } } }
      | undefined;
    return tasks?.requests?.tools?.call !== undefined;
  }

  /**
   * The server's tools, page after page. In 2026-07-28, a tool whose `x-mcp-header`
   * annotations are invalid is left out (with a warning): it could not be called correctly.
   *
   * @example
   * ```ts
   * for await (const tool of client.tools()) console.log(tool.name, tool.description);
   * ```
   */
  async *tools(options: CallOptions = {}): AsyncGenerator<Tool> {
    const listed = new Map<string, Tool>();
    for await (const tool of this.#pages<Tool>('tools/list', 'tools', options)) {
      if (this.era === 'modern') {
        const problem = headerAnnotationProblem(tool);
        if (problem) {
          this.#settings.onWarning(`Tool "${tool.name}" left out: ${problem}`);
          continue;
        }
      }
      listed.set(tool.name, tool);
      this.#tools.set(tool.name, tool);
      yield tool;
    }
    // A complete listing replaces what was known: tools that disappeared are forgotten.
    for (const name of [...this.#tools.keys()]) if (!listed.has(name)) this.#tools.delete(name);
    this.#toolsListed = true;
  }

  /** All the server's tools (every page of {@link tools}). */
  listTools(options: CallOptions = {}): Promise<Tool[]> {
    return collect(this.tools(options));
  }

  /** The server's resources, page after page. */
  resources(options: CallOptions = {}): AsyncGenerator<Resource> {
    return this.#pages<Resource>('resources/list', 'resources', options);
  }

  /** All the server's resources. */
  listResources(options: CallOptions = {}): Promise<Resource[]> {
    return collect(this.resources(options));
  }

  /** The server's resource templates, page after page. */
  resourceTemplates(options: CallOptions = {}): AsyncGenerator<ResourceTemplate> {
    return this.#pages<ResourceTemplate>('resources/templates/list', 'resourceTemplates', options);
  }

  /** All the server's resource templates. */
  listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplate[]> {
    return collect(this.resourceTemplates(options));
  }

  /**
   * Reads a resource.
   *
   * @example
   * ```ts
   * const { contents } = await client.readResource('file:///notes/today.md');
   * ```
   */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.#session.request('resources/read', { uri }, options);
  }

  /** The server's prompts, page after page. */
  prompts(options: CallOptions = {}): AsyncGenerator<Prompt> {
    return this.#pages<Prompt>('prompts/list', 'prompts', options);
  }

  /** All the server's prompts. */
  listPrompts(options: CallOptions = {}): Promise<Prompt[]> {
    return collect(this.prompts(options));
  }

  /**
   * Gets a prompt's messages.
   *
   * @example
   * ```ts
   * const { messages } = await client.getPrompt('review', { language: 'ts' });
   * ```
   */
  getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return this.#session.request(
      'prompts/get',
      args === undefined ? { name } : { name, arguments: args },
      options,
    );
  }

  /**
   * Completion values for a prompt argument or a resource template variable.
   *
   * @example
   * ```ts
   * const { completion } = await client.complete({ type: 'ref/prompt', name: 'review' }, { name: 'language', value: 'ty' });
   * ```
   */
  complete(
    ref: CompletionRef,
    argument: { readonly name: string; readonly value: string },
    options: CallOptions & {
      readonly context?: { readonly arguments?: Record<string, string> };
    } = {},
  ): Promise<CompleteResult> {
    const params: Record<string, unknown> = { ref, argument };
    if (options.context) params.context = options.context;
    return this.#session.request('completion/complete', params, options);
  }

  /**
   * Sends any request, dressed for the era (the 2026-07-28 envelope, input rounds answered):
   * for methods this client has no call for.
   *
   * @example
   * ```ts
   * await client.request('resources/subscribe', { uri: 'file:///log' });
   * ```
   */
  request<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<T> {
    return this.#session.request<T>(method, params, options);
  }

  /**
   * Subscribes to the server's changes, the same way in both eras: a 2026-07-28
   * `subscriptions/listen` stream (resolves once the server acknowledged it), or in a legacy
   * session its unsolicited `list_changed` notifications and `resources/subscribe` for each URI.
   * `onChange` hears only what `filter` asked for; `acknowledged` says what the server agreed to.
   *
   * @example
   * ```ts
   * const listening = await client.listen({ tools: true, resourceUris: ['file:///log'] }, (change) => {
   *   if (change.method === 'notifications/tools/list_changed') void client.listTools();
   * });
   * await listening.close();
   * ```
   */
  listen(
    filter: ListenFilter,
    onChange: (change: Change) => void,
    options: { readonly timeoutMs?: number } = {},
  ): Promise<Listening> {
    return listen(
      this.#session,
      this.#server,
      filter,
      onChange,
      options.timeoutMs ?? this.#settings.timeoutMs,
    );
  }

  /**
   * Listens to every notification the server sends (progress and log messages included, which
   * also reach `onProgress` and `onLog`). Returns the function that stops listening.
   *
   * @example
   * ```ts
   * const stop = client.onNotification((method) => {
   *   if (method === 'notifications/tools/list_changed') refresh();
   * });
   * ```
   */
  onNotification(listener: NotificationListener): () => void {
    return this.#session.listen(listener);
  }

  /**
   * Disconnects: calls in flight reject, the legacy HTTP session is ended, a server process is
   * stopped (stdin closed, then SIGTERM, then SIGKILL).
   */
  close(): Promise<void> {
    return this.#session.close();
  }

  async *#pages<T>(method: string, key: string, options: CallOptions): AsyncGenerator<T> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.#session.request<Record<string, unknown>>(
        method,
        cursor === undefined ? {} : { cursor },
        options,
      );
      const items = page?.[key];
      if (!Array.isArray(items))
        throw new TypeError(`The server's ${method} result has no "${key}" array`);
      for (const item of items) yield item as T;
      const next = page.nextCursor;
      cursor = typeof next === 'string' && next !== '' ? next : undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor))
          throw new TypeError(
            `The server's ${method} sent the cursor "${cursor}" a second time; stopped instead of looping forever`,
          );
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }
}

/** A tool's `execution.taskSupport` (`forbidden` when it says nothing). */
function taskSupport(tool: Tool | undefined): string {
  const execution = tool?.execution as { taskSupport?: unknown } | undefined;
  return typeof execution?.taskSupport === 'string' ? execution.taskSupport : 'forbidden';
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
