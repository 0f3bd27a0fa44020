import { JsonRpcError, type Channel } from './jsonrpc/index.js';
import { createClientPeer } from './protocol/client-peer.js';
import {
  isModernRevision,
  LATEST_LEGACY,
  requestEnvelope,
  withTasksExtension,
  type ServerConnection,
} from './protocol/index.js';
import type { McpFwServer } from './server.js';
import { createInMemoryPair } from './transports/in-memory.js';

/** Options of {@link connectTestClient}. */
export interface TestClientOptions {
  /**
   * The revision: a legacy one is offered at `initialize` (default: the latest legacy revision);
   * `2026-07-28` sends no handshake and puts the envelope on every request instead.
   */
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /**
   * Answers to the server's requests, by method (`elicitation/create`, `sampling/createMessage`,
   * `roots/list`, `ping`). Declare the matching capability too, as a real client would.
   */
  handlers?: Record<string, (params: Record<string, unknown>) => unknown>;
}

/** A JSON object as the server sent it. */
export type WireObject = Record<string, unknown>;

/**
 * A content block (or resource contents) as the server sent it: every field of every kind is
 * optional, so a test reads `content[0].text` without narrowing, and sees `undefined` where the
 * server sent something else.
 */
export interface ReceivedBlock {
  type?: string;
  text?: string;
  data?: string;
  blob?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: ReceivedBlock;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A `tools/call` result as the server sent it. */
export interface ReceivedToolResult {
  content: ReceivedBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A tool as `tools/list` lists it. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: Record<string, unknown>[];
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A notification the server sent to the test client. */
export interface ReceivedNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** An in-memory MCP client bound to one server: no process, no port. */
export interface TestClient {
  /** The `initialize` result (the `server/discover` result under 2026-07-28). */
  readonly initializeResult: Record<string, unknown>;
  /** Every notification received so far, in order. */
  readonly notifications: readonly ReceivedNotification[];
  /** Every frame that crossed the connection, verbatim, in order. */
  readonly wire: readonly { dir: 'c2s' | 's2c'; line: string }[];
  /**
   * Sends exactly this request: no envelope added, no input rounds answered. The result is what
   * the server sent, unchecked: name its shape with `R`.
   */
  rawRequest<R = WireObject>(method: string, params?: Record<string, unknown>): Promise<R>;
  /**
   * Sends any request; rejects with a `JsonRpcError` carrying the server's error. The result is
   * what the server sent, unchecked: name its shape with `R`.
   *
   * @example
   * ```ts
   * const { completion } = await client.request<{ completion: { values: string[] } }>('completion/complete', params);
   * ```
   */
  request<R = WireObject>(
    method: string,
    params?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<R>;
  /** Sends a notification to the server. */
  notify(method: string, params?: Record<string, unknown>): void;
  /** `tools/list`, one page. */
  listTools(cursor?: string): Promise<{ tools: ListedTool[]; nextCursor?: string }>;
  /** `tools/call`; the result, `isError` results included. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; progressToken?: string | number },
  ): Promise<ReceivedToolResult>;
  /**
   * `tools/call` as a task, followed to its end: under 2026-07-28 the request declares the tasks
   * extension, the task is polled with `tasks/get` and its questions are answered by `handlers`
   * through `tasks/update`; under 2025-11-25 it is asked for with `params.task` and awaited with
   * `tasks/result` (its questions reach `handlers` as requests). Polls without waiting the whole
   * `pollIntervalMs`, to keep tests quick. Under 2026-07-28 a tool that allows no task is
   * answered in its request and comes back as `result` alone; 2025-11-25 refuses it (-32601).
   *
   * @example
   * ```ts
   * const client = await connectTestClient(server, {
   *   protocolVersion: '2026-07-28',
   *   capabilities: { elicitation: {} },
   *   handlers: { 'elicitation/create': () => ({ action: 'accept', content: { confirm: true } }) },
   * });
   * const { status, result } = await client.callToolAsTask('ship', { version: '1.0' });
   * expect(status).toBe('completed');
   * ```
   */
  callToolAsTask(name: string, args?: Record<string, unknown>): Promise<ReceivedTask>;
  /** `resources/read`. */
  readResource(uri: string): Promise<{ contents: ReceivedBlock[] }>;
  /** `prompts/get`. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
  ): Promise<{ description?: string; messages: { role: string; content: ReceivedBlock }[] }>;
  /** Disconnects from the server. */
  close(): Promise<void>;
}

/** How a task started by {@link TestClient.callToolAsTask} ended. */
export interface ReceivedTask {
  /** Absent when the server answered without a task. */
  readonly taskId?: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
  /** The call's result (`completed`). */
  readonly result?: ReceivedToolResult;
  /** The JSON-RPC error the call ended with (`failed`). */
  readonly error?: { code: number; message: string; data?: unknown };
  /** Every status the client saw, in order (2026-07-28), e.g. `working`, `input_required`. */
  readonly seen: readonly string[];
}

/**
 * Connects an in-memory client to `server`, runs the `initialize` handshake at the chosen
 * revision, and returns a client for your tests.
 *
 * @example
 * ```ts
 * import { connectTestClient } from '@mcp-fw/core/testing';
 *
 * const client = await connectTestClient(createServer({ name: 't', version: '1', providers: [Calculator] }));
 * const result = await client.callTool('add', { a: 1, b: 2 });
 * expect(result.content[0].text).toBe('3');
 * ```
 */
export async function connectTestClient(
  server: McpFwServer,
  options: TestClientOptions = {},
): Promise<TestClient> {
  const [clientSide, serverSide] = recorded(createInMemoryPair());
  const connection: ServerConnection = server.connect(serverSide);
  const notifications: ReceivedNotification[] = [];
  // Like a real client, an aborted or timed-out call tells the server to stop.
  const engine = createClientPeer(
    clientSide,
    {
      request: (method, params) => {
        const handler = options.handlers?.[method];
        if (!handler)
          throw new JsonRpcError(
            -32601,
            `Method not found: ${method} (no handler in the test client)`,
          );
        return handler((params ?? {}) as Record<string, unknown>);
      },
      notification: (method, params) => void notifications.push({ method, params }),
    },
    { timeoutMs: 60_000 },
  );
  const raw = (
    method: string,
    params?: Record<string, unknown>,
    opts: { signal?: AbortSignal } = {},
  ) => engine.request(method, params, { signal: opts.signal }) as Promise<WireObject>;
  const version = options.protocolVersion ?? LATEST_LEGACY;
  const capabilities = options.capabilities ?? {};
  const clientInfo = options.clientInfo ?? { name: 'mcp-fw-test-client', version: '0.0.0' };
  let request = raw;
  let initializeResult: Record<string, unknown>;
  if (isModernRevision(version)) {
    // 2026-07-28: no handshake; every request carries the envelope, and input_required results
    // are answered by the handlers and retried, as the official client does.
    const envelope = requestEnvelope(version, capabilities, clientInfo);
    const enveloped = (params: Record<string, unknown> = {}) => ({
      ...params,
      _meta: { ...envelope, ...(params._meta as Record<string, unknown> | undefined) },
    });
    request = async (method, params, opts) => {
      let current: Record<string, unknown> = enveloped(params);
      for (let round = 0; ; round++) {
        const result = await raw(method, current, opts);
        if (result?.resultType !== 'input_required' || round >= 10) return result;
        const inputResponses: Record<string, unknown> = {};
        for (const [key, input] of Object.entries(result.inputRequests ?? {}) as [
          string,
          { method: string; params: unknown },
        ][]) {
          const handler = options.handlers?.[input.method];
          if (handler)
            inputResponses[key] = await handler((input.params ?? {}) as Record<string, unknown>);
        }
        const { inputResponses: _old, requestState: _state, ...rest } = current;
        current = {
          ...rest,
          inputResponses,
          ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
        };
      }
    };
    initializeResult = await request('server/discover');
  } else {
    initializeResult = (await raw('initialize', {
      protocolVersion: version,
      capabilities,
      clientInfo,
    })) as Record<string, unknown>;
    engine.notify('notifications/initialized');
  }
  return {
    initializeResult,
    notifications,
    wire: (clientSide as RecordingChannel).wire,
    request: (method, params, opts) => unchecked(request(method, params, opts)),
    rawRequest: (method, params) => unchecked(raw(method, params)),
    notify: (method, params) => engine.notify(method, params),
    listTools: (cursor) => unchecked(request('tools/list', cursor === undefined ? {} : { cursor })),
    callTool: (name, args, opts = {}) => {
      const params: Record<string, unknown> =
        args === undefined ? { name } : { name, arguments: args };
      if (opts.progressToken !== undefined) params._meta = { progressToken: opts.progressToken };
      return unchecked(request('tools/call', params, opts));
    },
    callToolAsTask: async (name, args) => {
      const call: Record<string, unknown> =
        args === undefined ? { name } : { name, arguments: args };
      if (!isModernRevision(version)) return legacyTask(request, call);
      const _meta = requestEnvelope(version, withTasksExtension(capabilities), clientInfo);
      return modernTask(request, { ...call, _meta }, _meta, options.handlers ?? {});
    },
    readResource: (uri) => unchecked(request('resources/read', { uri })),
    getPrompt: (name, args) =>
      unchecked(request('prompts/get', args === undefined ? { name } : { name, arguments: args })),
    close: async () => {
      await engine.close();
      await connection.engine.close();
    },
  };
}

export { JsonRpcError };

type Send = (method: string, params?: Record<string, unknown>) => Promise<WireObject>;
const TERMINAL = ['completed', 'failed', 'cancelled'];

/** 2026-07-28: poll tasks/get, answer input requests through tasks/update. */
async function modernTask(
  request: Send,
  call: Record<string, unknown>,
  _meta: Record<string, unknown>,
  handlers: NonNullable<TestClientOptions['handlers']>,
): Promise<ReceivedTask> {
  const created = await request('tools/call', call);
  if (created.resultType !== 'task')
    return { status: 'completed', result: created as unknown as ReceivedToolResult, seen: [] };
  const taskId = created.taskId as string;
  const seen: string[] = [];
  const answered = new Set<string>();
  for (;;) {
    const task = await request('tasks/get', { taskId, _meta });
    const status = task.status as ReceivedTask['status'] | 'working' | 'input_required';
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (TERMINAL.includes(status)) {
      return {
        taskId,
        status: status as ReceivedTask['status'],
        result: task.result as ReceivedToolResult | undefined,
        error: task.error as ReceivedTask['error'],
        seen,
      };
    }
    const waiting = (task.inputRequests ?? {}) as Record<
      string,
      { method: string; params: unknown }
    >;
    const inputResponses: Record<string, unknown> = {};
    for (const [key, input] of Object.entries(waiting)) {
      const handler = handlers[input.method];
      if (answered.has(key) || !handler) continue;
      answered.add(key);
      inputResponses[key] = await handler((input.params ?? {}) as Record<string, unknown>);
    }
    if (Object.keys(inputResponses).length > 0)
      await request('tasks/update', { taskId, inputResponses, _meta });
    else await new Promise((r) => setTimeout(r, Math.min(Number(task.pollIntervalMs) || 1, 5)));
  }
}

/** 2025-11-25: ask for a task, wait for tasks/result (questions arrive as requests meanwhile). */
async function legacyTask(request: Send, call: Record<string, unknown>): Promise<ReceivedTask> {
  const created = await request('tools/call', { ...call, task: {} });
  const task = created.task as { taskId: string } | undefined;
  if (!task)
    return { status: 'completed', result: created as unknown as ReceivedToolResult, seen: [] };
  let result: ReceivedToolResult | undefined;
  let error: ReceivedTask['error'];
  try {
    result = (await request('tasks/result', {
      taskId: task.taskId,
    })) as unknown as ReceivedToolResult;
  } catch (failure) {
    error =
      failure instanceof JsonRpcError
        ? failure.toJSON()
        : { code: -32603, message: String(failure) };
  }
  const end = await request('tasks/get', { taskId: task.taskId });
  return {
    taskId: task.taskId,
    status: end.status as ReceivedTask['status'],
    result,
    error,
    seen: [],
  };
}

// The test client reports what the server sent without checking it: the caller names the shape.
function unchecked<R>(result: Promise<WireObject>): Promise<R> {
  return result as Promise<unknown> as Promise<R>;
}

type WireLine = { dir: 'c2s' | 's2c'; line: string };
type RecordingChannel = Channel & { wire: WireLine[] };

/** Records what the client side sends and receives, for assertions on the exact frames. */
function recorded([client, server]: [Channel, Channel]): [Channel, Channel] {
  const wire: WireLine[] = [];
  const channel: RecordingChannel = {
    wire,
    start: (sink) =>
      client.start({
        ...sink,
        frame: (text, origin) => {
          wire.push({ dir: 's2c', line: text });
          sink.frame(text, origin);
        },
      }),
    send: (frame, route) => {
      wire.push({ dir: 'c2s', line: frame });
      client.send(frame, route);
    },
    close: () => client.close(),
  };
  return [channel, server];
}
