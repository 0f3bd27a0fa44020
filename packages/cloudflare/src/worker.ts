import { ErrorCode } from '@mcp-fw/core';
import { createHttpHandler, type HttpHandlerOptions, type McpHttpHandler } from '@mcp-fw/core/http';
import type { Servable } from '@mcp-fw/core/transport';
import type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStubLike,
} from './bindings.js';
import {
  changedLists,
  INTERNAL_HEADER,
  isListChangedNotice,
  listChangedNotice,
  tellListChanged,
  withoutInternalHeader,
} from './listen-route.js';
import { messageOf, namedSession, objectIdOf, opensSession, sessionIdIn } from './route.js';
import { belongsToTasks, TASKS_OBJECT } from './task-route.js';

/**
 * Options of {@link mcpWorker}.
 *
 * @example
 * ```ts
 * const worker = mcpWorker({ server: (env) => createWeatherServer(env), sessions: 'MCP_SESSIONS' });
 * ```
 */
export interface McpWorkerOptions<Env = Record<string, unknown>> {
  /**
   * Builds the server from the Worker's `env`: once per isolate for 2026-07-28 requests, and
   * once per Durable Object for legacy sessions. Workers run many isolates, so anything the
   * instances must agree on comes from `env`, e.g. `inputRounds.requestStateKey` (a secret of at
   * least 32 bytes): an input round's `requestState` signed by one isolate is checked by another.
   * `where.sessionObject` is the Durable Object's id when the server is built for one.
   */
  readonly server: (env: Env, where: { readonly sessionObject?: string }) => Servable;
  /**
   * The name of the Durable Object namespace binding that holds legacy (2024-11-05 …
   * 2025-11-25) sessions, e.g. `'MCP_SESSIONS'`, whose class is this worker's `SessionObject`
   * (exported from the module under the binding's `class_name`). 2026-07-28 tasks run in one
   * object of it too, named `mcp-fw:tasks`. Without it the Worker serves 2026-07-28 only and
   * refuses `initialize`, and calls that would start a task, with a message naming this option.
   */
  readonly sessions?: string;
  /** The HTTP endpoint's options (path, allowedOrigins, authenticate, limits, …). */
  readonly http?: HttpHandlerOptions;
}

/** A module worker: `export default` it, and export its `SessionObject` class too. */
export interface McpWorker<Env = Record<string, unknown>> {
  /** The Worker's fetch handler. */
  fetch(request: Request, env: Env): Promise<Response>;
  /**
   * The Durable Object class legacy sessions live in: export it from the worker module under the
   * `class_name` of the `sessions` binding (wrangler.jsonc `durable_objects.bindings`).
   */
  readonly SessionObject: new (
    state: DurableObjectStateLike,
    env: Env,
  ) => DurableObjectStubLike;
}

/**
 * Serves an mcp-fw server from a Cloudflare Worker: stateless 2026-07-28 requests in the
 * Worker itself, legacy sessions each in a Durable Object that the session's id names, so every
 * request of a session reaches the one object that holds it, whichever isolate took it.
 * JSON Schemas are checked without code generation there (Workers forbid `new Function`; core
 * picks its interpreter by itself).
 *
 * @example
 * ```ts
 * import { mcpWorker } from '@mcp-fw/cloudflare';
 * import { createServer } from '@mcp-fw/core';
 *
 * const worker = mcpWorker({
 *   server: (env) => createServer({ name: 'weather', version: '1.0.0', providers: [Weather] }),
 *   sessions: 'MCP_SESSIONS',
 * });
 * export default worker;
 * export const McpSessions = worker.SessionObject; // durable_objects: MCP_SESSIONS → McpSessions
 * ```
 */
export function mcpWorker<Env = Record<string, unknown>>(
  options: McpWorkerOptions<Env>,
): McpWorker<Env> {
  const http = options.http ?? {};
  const paths = {
    mcp: http.path ?? '/mcp',
    sse: http.ssePath ?? '/sse',
    messages: http.messagesPath ?? '/messages',
  };
  const maxBodyBytes = http.maxBodyBytes ?? 4 * 1024 * 1024;
  // Built on the first request: Workers refuse timers and random values at module scope.
  let servable: Servable | undefined;
  let stateless: McpHttpHandler | undefined;
  const serverOf = (env: Env) => (servable ??= options.server(env, {}));
  const local = (request: Request, env: Env) =>
    (stateless ??= createHttpHandler(serverOf(env), http)).fetch(request, peerOf(request));

  const namespace = (env: Env): DurableObjectNamespaceLike | undefined => {
    if (options.sessions === undefined) return undefined;
    const binding = (env as Record<string, unknown>)[options.sessions];
    if (binding === undefined)
      throw new Error(
        `mcpWorker: the env has no binding named ${options.sessions} (the sessions option); add a durable_objects binding of that name to wrangler.jsonc, whose class_name is the exported SessionObject`,
      );
    return binding as DurableObjectNamespaceLike;
  };

  async function fetch(request: Request, env: Env): Promise<Response> {
    // Only the Worker itself tells the shared object of list changes (listen-route.ts).
    if (request.headers.has(INTERNAL_HEADER)) request = withoutInternalHeader(request);
    const url = new URL(request.url);
    const objects = namespace(env);
    const session = namedSession(request, url, paths.messages);
    if (session !== undefined) {
      const objectId = objects && objectIdOf(session);
      if (objects && objectId) {
        const id = tryIdFromString(objects, objectId);
        if (id) return objects.get(id).fetch(request);
      }
      // Not one of ours: the endpoint answers it as the unknown session it is (404).
      return local(request, env);
    }
    if (request.method === 'GET' && url.pathname === paths.sse) {
      return objects ? objects.get(objects.newUniqueId()).fetch(request) : noSessions(null);
    }
    if (
      request.method === 'POST' &&
      url.pathname === paths.mcp &&
      fitsInMemory(request, maxBodyBytes)
    ) {
      const body = await request.text();
      const copy = new Request(request, { body });
      const message = messageOf(body);
      if (message && opensSession(message)) {
        if (!objects) return noSessions(idOf(message));
        return objects.get(objects.newUniqueId()).fetch(copy);
      }
      // Tasks run in one Durable Object, where their work survives the request (task-route.ts),
      // and listen streams are held there, where a later request may write to them
      // (listen-route.ts).
      if (
        message &&
        (message.method === 'subscriptions/listen' ||
          belongsToTasks(message, serverOf(env).registry))
      ) {
        if (objects) return objects.get(objects.idFromName(TASKS_OBJECT)).fetch(copy);
        // Started here, a task would stop with this request and never end.
        if (message.method === 'tools/call') return noTasks(idOf(message));
      }
      return objects ? servedHere(copy, env, objects) : local(copy, env);
    }
    // Larger bodies, GET and DELETE without a session, other paths: the endpoint's own answers.
    return local(request, env);
  }

  /**
   * A stateless request served in the isolate; when it changed the server's lists (a tool that
   * adds a tool), the listen streams held in the shared object are told, from this request.
   */
  async function servedHere(
    request: Request,
    env: Env,
    objects: DurableObjectNamespaceLike,
  ): Promise<Response> {
    const before = serverOf(env).registry;
    const response = await local(request, env);
    const after = serverOf(env).registry;
    if (after !== before) {
      const lists = changedLists(before, after);
      if (lists.length > 0)
        await objects.get(objects.idFromName(TASKS_OBJECT)).fetch(listChangedNotice(lists));
    }
    return response;
  }

  class SessionObject {
    readonly #handler: McpHttpHandler;
    readonly #server: Servable;
    // The shared object (tasks, listen streams), when this is a session's object instead; its
    // stub is made when a list change must reach it, not for every session object.
    readonly #shared?: () => DurableObjectStubLike;
    constructor(state: DurableObjectStateLike, env: Env) {
      const objectId = state.id.toString();
      this.#server = options.server(env, { sessionObject: objectId });
      this.#handler = createHttpHandler(this.#server, {
        ...http,
        sessionIds: () => sessionIdIn(objectId),
      });
      const objects = namespace(env);
      const shared = objects?.idFromName(TASKS_OBJECT);
      if (objects && shared && shared.toString() !== objectId)
        this.#shared = () => objects.get(shared);
    }
    /** Serves a request of one of the sessions this object holds (or opens one). */
    async fetch(request: Request): Promise<Response> {
      const lists = await isListChangedNotice(request);
      if (lists) return tellListChanged(this.#server, lists);
      const before = this.#server.registry;
      const response = await this.#handler.fetch(request, peerOf(request));
      // A session's call changed the lists: the listen streams in the shared object hear of it.
      if (this.#shared && this.#server.registry !== before) {
        const changed = changedLists(before, this.#server.registry);
        if (changed.length > 0) await this.#shared().fetch(listChangedNotice(changed));
      }
      return response;
    }
  }

  return { fetch, SessionObject };
}

// Cloudflare sets CF-Connecting-IP to the client's address (per-address limits, audit log).
function peerOf(request: Request): { remoteAddress?: string } {
  const address = request.headers.get('cf-connecting-ip');
  return address ? { remoteAddress: address } : {};
}

// Only a body the endpoint would accept is read here to be routed; a larger one goes to the
// endpoint as it came, which refuses it (413) without holding it all.
function fitsInMemory(request: Request, maxBodyBytes: number): boolean {
  const length = Number(request.headers.get('content-length') ?? Number.NaN);
  return Number.isFinite(length) && length <= maxBodyBytes;
}

function tryIdFromString(objects: DurableObjectNamespaceLike, id: string) {
  try {
    return objects.idFromString(id);
  } catch {
    return undefined;
  }
}

function idOf(message: Record<string, unknown>): string | number | null {
  const { id } = message;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function noTasks(id: string | number | null): Response {
  return refusal(
    id,
    'Bad Request: this tool runs as a task under the tasks extension, and a Worker runs tasks in a Durable Object, which this one has none of. Fix: bind a Durable Object namespace and pass its name as the sessions option of mcpWorker (tasks share it), or call without declaring the io.modelcontextprotocol/tasks extension',
  );
}

function noSessions(id: string | number | null): Response {
  return refusal(
    id,
    'Bad Request: this Worker serves the stateless 2026-07-28 revision only, so legacy sessions (initialize, 2024-11-05 to 2025-11-25) are not available. Fix: bind a Durable Object namespace and pass its name as the sessions option of mcpWorker, or use a 2026-07-28 client',
  );
}

function refusal(id: string | number | null, message: string): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InvalidRequest, message },
    },
    { status: 400 },
  );
}
