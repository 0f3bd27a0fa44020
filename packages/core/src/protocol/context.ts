import type { JsonRpcId } from '../jsonrpc/index.js';
import {
  elicitForm,
  elicitUrl,
  listRoots,
  sample,
  type Asker,
  type ClientRequestOptions,
  type ElicitResult,
  type SampleRequest,
} from './client-requests.js';
import { contextLog, type ContextLog } from './context-log.js';
import { ProgressReporter } from './progress.js';
import type { SampleResult } from './sample-result.js';
import { rendersViews, type StandardSchemaV1 } from '../registry/index.js';
import type { InputRun } from './input/input-run.js';
import type { Invocation } from './guards/call.js';
import type { ClientCapabilities, ClientInfo, RequestRecord } from './request-record.js';
import type { Scope } from './server-core.js';
import { sessionKeyOf } from './session-state/session-key.js';
import type { SessionState } from './session-state/session-state.js';

/** The answer type of an elicitation form: the schema's output type when it has one. */
export type FormOf<TSchema> =
  TSchema extends StandardSchemaV1<unknown, infer TOutput> ? TOutput : Record<string, unknown>;

/**
 * What a handler is handed with each call: the request's identity, the client, the signal that
 * fires when the client cancels, and every way of talking back to the client — progress, logs,
 * and questions (elicitation, sampling, roots). Its shape is the same in every protocol era, and
 * all per-call state lives here, never on the class instance, so concurrent calls cannot mix.
 *
 * @example
 * ```ts
 * @Tool({ input: z.object({ files: z.array(z.string()) }) })
 * async deleteFiles({ files }: { files: string[] }, ctx: Context) {
 *   const answer = await ctx.elicit(`Delete ${files.length} files?`, z.object({ confirm: z.boolean() }));
 *   if (answer.action !== 'accept' || !answer.content.confirm) return 'Nothing deleted.';
 *   for (const [i, file] of files.entries()) {
 *     if (ctx.signal.aborted) break;
 *     await rm(file);
 *     ctx.progress(i + 1, files.length, file);
 *   }
 *   ctx.log.info(`deleted ${files.length} files`);
 *   return 'Done.';
 * }
 * ```
 */
export class Context {
  readonly #initial: RequestRecord;
  readonly #scope: Scope;
  readonly #run?: InputRun;
  readonly #invocation?: Invocation;
  #progress?: ProgressReporter;
  #progressRecord?: RequestRecord;
  #log?: ContextLog;
  #logRecord?: RequestRecord;
  #state?: SessionState;

  constructor(record: RequestRecord, scope: Scope, invocation?: Invocation) {
    this.#initial = record;
    this.#scope = scope;
    this.#run = invocation?.run;
    this.#invocation = invocation;
  }

  // Under 2026-07-28 a call can span several requests (input rounds); the current one decides
  // the progress token, log level and capabilities.
  get #record(): RequestRecord {
    return this.#run?.record ?? this.#initial;
  }

  /** Fires when the client cancels the request, the connection closes, or the call times out. */
  get signal(): AbortSignal {
    return this.#invocation?.deadline?.signal ?? this.#run?.signal ?? this.#initial.request.signal;
  }

  /** The JSON-RPC id of the request being served. */
  get requestId(): JsonRpcId {
    return this.#record.request.id;
  }

  /** The protocol revision this request is served under. */
  get protocolVersion(): string {
    return this.#record.protocolVersion;
  }

  /** The identity the HTTP authentication hook attached to this request, if any. */
  get auth(): unknown {
    return this.#record.auth;
  }

  /**
   * Who is calling and what it can do. Read-only: the same objects serve many calls of one
   * client, and under 2026-07-28 they are frozen when its requests repeat the same envelope.
   *
   * @example
   * ```ts
   * if (ctx.client.capabilities.elicitation) await ctx.elicit('Proceed?', z.object({ ok: z.boolean() }));
   * ```
   */
  get client(): { readonly info: ClientInfo; readonly capabilities: ClientCapabilities } {
    return { info: this.#record.clientInfo, capabilities: this.#record.clientCapabilities };
  }

  /**
   * Whether the client renders MCP Apps views: it declared `extensions["io.modelcontextprotocol/ui"]`
   * with the MIME type `text/html;profile=mcp-app` (at initialize, or under 2026-07-28 in this
   * request's envelope). A tool with a view returns the same result either way; use this to
   * make its text `content` stand on its own for a client that shows only text.
   *
   * @example
   * ```ts
   * return { content: [{ type: 'text', text: ctx.rendersViews ? 'Opened the board.' : table(orders) }], structuredContent: { orders } };
   * ```
   */
  get rendersViews(): boolean {
    return rendersViews(this.#record.clientCapabilities);
  }

  /**
   * Reports progress, if the client asked for it (sent only when the request carried a progress
   * token; a value that does not increase is dropped). In a call that runs as a task, it also
   * becomes the task's `statusMessage` (`message`, else `progress/total`), which pollers read.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (this.#run?.detached)
      this.#run.noteProgress(
        message ?? (total === undefined ? `${progress}` : `${progress}/${total}`),
      );
    const record = this.#record;
    if (this.#progressRecord !== record) {
      // A new round brings a new progress token (and its own ordering).
      this.#progressRecord = record;
      this.#progress = new ProgressReporter(record, this.#scope);
    }
    this.#progress!.report(progress, total, message);
  }

  /** Log messages for the client, filtered by its `logging/setLevel` (or, 2026-07-28, the request's `logLevel`). */
  get log(): ContextLog {
    const record = this.#record;
    if (this.#logRecord !== record) {
      this.#logRecord = record;
      this.#log = contextLog(record, this.#scope);
    }
    return this.#log!;
  }

  /**
   * Asks the user to fill a form (elicitation, form mode) and waits for the answer; accepted
   * content is validated against `schema`. Fails with a clear error when the client cannot
   * elicit, or does not answer within the timeout.
   */
  elicit<TSchema extends object>(
    message: string,
    schema: TSchema,
    options?: ClientRequestOptions,
  ): Promise<ElicitResult<FormOf<TSchema>>> {
    return elicitForm<FormOf<TSchema>>(this.#asker, this.#scope, message, schema, options);
  }

  /** Sends the user to a URL (elicitation, URL mode; 2025-11-25 and later). */
  elicitUrl(
    message: string,
    url: string,
    options?: ClientRequestOptions,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    return elicitUrl(this.#asker, this.#scope, message, url, options);
  }

  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(request: SampleRequest, options?: ClientRequestOptions): Promise<SampleResult> {
    return sample(this.#asker, this.#scope, request, options);
  }

  /** The client's roots (`roots/list`). */
  roots(options?: ClientRequestOptions): Promise<{ uri: string; name?: string }[]> {
    return listRoots(this.#asker, this.#scope, options);
  }

  /**
   * Lets the rest of this call run as a task, for a tool declared
   * `@Tool({ task: { deferred: true } })`: the request is answered with the task at once, and
   * the handler goes on detached (its questions then reach the client through the task, and the
   * task's cancellation aborts `ctx.signal`); its result becomes the task's. Questions asked
   * before are input rounds of the request. Resolves `true` once the call runs as a task (also
   * when it already did), `false` when it goes on in its request (the client or the revision
   * cannot take a task, or the tool does not allow one).
   *
   * @example
   * ```ts
   * @Tool({ description: 'Publishes a report', task: { mode: 'optional', deferred: true } })
   * async publish(_args: object, ctx: Context) {
   *   const ok = await ctx.elicit('Publish now?', z.object({ confirm: z.boolean() }));
   *   if (ok.action !== 'accept' || !ok.content.confirm) return 'Not published.';
   *   await ctx.runAsTask();
   *   return await buildAndUpload(ctx.signal);
   * }
   * ```
   */
  runAsTask(): Promise<boolean> {
    const run = this.#run;
    if (!run) return Promise.resolve(false);
    if (run.detached) return Promise.resolve(true);
    return run.detacher ? run.detacher() : Promise.resolve(false);
  }

  get #asker(): Asker {
    const invocation = this.#invocation;
    return {
      record: this.#record,
      run: this.#run,
      signal: invocation?.deadline?.signal,
      meta: invocation?.outboundMeta,
    };
  }

  /**
   * What this session keeps between calls: JSON values by key (async `get`, `set`, `delete`),
   * bounded by `limits.sessionState`, in the shared store when the server has one. The session
   * is the legacy session or stdio connection; under 2026-07-28 over HTTP, which has no
   * sessions, it is the authenticated caller (unauthenticated requests are refused).
   *
   * @example
   * ```ts
   * const visits = ((await ctx.state.get<number>('visits')) ?? 0) + 1;
   * await ctx.state.set('visits', visits);
   * ```
   */
  get state(): SessionState {
    return (this.#state ??= this.#scope.core.sessionState.for(() =>
      sessionKeyOf(this.#record, this.#scope),
    ));
  }

  /**
   * @deprecated Use `server.resources.updated(uri)`: one way to announce a resource update,
   * from a handler or from anywhere else (a file watcher, a queue consumer).
   */
  resourceUpdated(uri: string): void {
    this.#scope.core.hub.resourceUpdated(uri);
  }
}
