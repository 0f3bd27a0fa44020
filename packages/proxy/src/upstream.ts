import {
  JsonRpcError,
  RequestTimeoutError,
  TransportError,
  type CallOptions,
  type ConnectOptions,
  type ElicitRequest,
  type InputHandlers,
  type InputInfo,
  type LogMessage,
  type McpClient,
} from '@mcp-fw/client';
import { INPUT_KEY_META } from '@mcp-fw/core/transport';
import {
  ClientCapabilityError,
  MissingCapabilityError,
  UserError,
  type Context,
  type MiddlewareContext,
  type PassThroughCall,
} from '@mcp-fw/core';
import { afterAnswer, bearerOf, bearerOfHeader, beforeQuestion } from './caller.js';
import { Deadlines } from './deadlines.js';
import type { Opener } from './target.js';

/**
 * The upstream answered with a JSON-RPC error: the caller gets the same error (a tool handler's
 * throw is otherwise an `isError` result; see the proxy's `callTool` middleware).
 */
export class UpstreamRpcError extends JsonRpcError {}

/** Whether an upstream answers: `connecting` (first attempt), `up`, or `down` (with why). */
export type UpstreamState = 'connecting' | 'up' | 'down';

/** One upstream's state, as `proxy.health()` and the gateway's `/healthz` report it. */
export interface UpstreamHealth {
  readonly name: string;
  readonly target: string;
  readonly state: UpstreamState;
  /** Why it is down. */
  readonly error?: string;
  /** When it entered this state (ISO 8601). */
  readonly since: string;
  /** The protocol revision the proxy speaks with it, when up. */
  readonly protocolVersion?: string;
  /** Upstream sessions open for callers now. */
  readonly sessions: number;
}

/** What the proxy settled for one upstream (see `ProxyOptions`). */
export interface UpstreamSettings {
  readonly name: string;
  readonly credentials: 'own' | 'forward';
  readonly sessions: 'per-client' | 'shared';
  readonly timeoutMs: number;
  readonly retryMs: number;
  readonly maxSessions: number;
  readonly idleMs: number;
  readonly maxLogsPerSecond: number;
  readonly connect: ConnectOptions;
  /** The upstream's lists changed (or it came back): mirror them again. */
  readonly changed: () => void;
  readonly resourceUpdated: (uri: string) => void;
  readonly warn: (message: string) => void;
}

/** One upstream connection and the downstream calls it serves now. */
interface Link {
  readonly key: string;
  /** Serves one downstream session: its questions may go to its latest call. */
  readonly isolated: boolean;
  client?: McpClient;
  opening?: Promise<McpClient>;
  /**
   * By the call's signal (the full path), or its pass-through call (which has none): its
   * `Context`, or the pass-through call whose `ctx` builds it when the upstream asks something.
   */
  readonly calls: Map<object, Context | PassThroughCall>;
  /** A question the caller cannot answer (a capability it lacks), by call: the call's answer. */
  readonly refusals: Map<object, unknown>;
  /** Forwarded calls that chose this link and have not ended (some may still be opening it). */
  reserved: number;
  /** One of the links stateless callers take turns on, one call at a time (see `#pooled`). */
  readonly pooled: boolean;
  /**
   * What the link declares it can answer (elicitation, sampling, roots): its callers'; unset
   * for the proxy's own connection, which declares everything (shared mode serves any caller).
   */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;
  /**
   * The legacy revision its caller speaks, which the link asks the upstream for first (unless
   * `connect.protocolVersion` pins one): a caller and upstream that speak the same revision
   * need no bridging, and their calls may take the fast path (pass-through.ts).
   */
  readonly revision: string | undefined;
  lastUsed: number;
  logWindow: number;
  logCount: number;
  dropped: number;
}

/**
 * One upstream server: the proxy's own connection (lists, completion, list changes) and, where
 * the upstream keeps sessions, one connection per downstream session (and caller token), so that
 * nothing of one client reaches another. Questions the upstream asks (elicitation, sampling,
 * roots) go to the downstream call they belong to, through its `ctx`.
 */
export class Upstream {
  readonly settings: UpstreamSettings;
  readonly opener: Opener;
  #state: UpstreamState = 'connecting';
  #error?: string;
  #since = new Date();
  readonly #primary: Link = newLink('proxy', false, false, undefined, undefined);
  #nextPooled = 0;
  readonly #links = new Map<string, Link>();
  /** The link of each legacy caller's latest pass-through call, by its capabilities object. */
  readonly #passLinks = new WeakMap<
    object,
    { readonly link: Link; readonly sessionId: string | undefined; readonly token?: string }
  >();
  /** The timeoutMs of pass-through calls, with one timer for all of them (deadlines.ts). */
  readonly #deadlines: Deadlines | undefined;
  #retry?: ReturnType<typeof setTimeout>;
  #sweep?: ReturnType<typeof setInterval>;
  #closed = false;
  #stopListening?: () => Promise<void>;
  #watched = '';
  #stopWatching?: () => Promise<void>;

  constructor(opener: Opener, settings: UpstreamSettings) {
    this.opener = opener;
    this.settings = settings;
    if (Number.isFinite(settings.timeoutMs)) this.#deadlines = new Deadlines(settings.timeoutMs);
    if (opener.shared) {
      this.#primary.client = opener.shared;
      this.#up(opener.shared);
    }
  }

  /** This upstream's state now. */
  health(): UpstreamHealth {
    return {
      name: this.settings.name,
      target: this.opener.describe,
      state: this.#state,
      ...(this.#error === undefined ? {} : { error: this.#error }),
      since: this.#since.toISOString(),
      ...(this.#state === 'up' && this.#primary.client
        ? { protocolVersion: this.#primary.client.protocolVersion }
        : {}),
      sessions: this.#links.size,
    };
  }

  get state(): UpstreamState {
    return this.#state;
  }

  /** Why calls fail now, naming the upstream and the fix. */
  downMessage(): string {
    return `Upstream "${this.settings.name}" (${this.opener.describe}) is down: ${this.#error ?? 'not connected yet'}. The proxy retries every ${this.settings.retryMs} ms; try again once it is back.`;
  }

  /** The capabilities the upstream declared, once the proxy's own connection is open. */
  capabilitiesNow(): Readonly<Record<string, unknown>> | undefined {
    return this.#primary.client?.server.capabilities as Record<string, unknown> | undefined;
  }

  /** The proxy's own connection (opened if needed); throws a `UserError` while the upstream is down. */
  async primary(): Promise<McpClient> {
    return this.#open(this.#primary, this.opener.headers);
  }

  /**
   * Runs `call` on the connection of the downstream caller (`mctx`), with the caller's
   * cancellation, deadline and progress, and its `ctx` answering the upstream's questions.
   */
  async forward<T>(
    what: string,
    ctx: Context,
    mctx: MiddlewareContext | undefined,
    call: (client: McpClient, options: CallOptions) => Promise<T>,
  ): Promise<T> {
    const caller = callerOfMiddleware(mctx, ctx, this.settings.credentials);
    const link = this.#linkFor(caller, ctx.client.capabilities);
    link.reserved++;
    let client: McpClient;
    try {
      client = await this.#open(link, this.#headersFor(caller.token));
    } catch (error) {
      link.reserved--;
      throw error;
    }
    return this.#run(link, client, what, ctx, mctx?.meta?.progressToken !== undefined, call);
  }

  /**
   * The pass-through of one call (see pass-through.ts): sent at once on the caller's upstream
   * connection when that is open and speaks the caller's revision of the legacy era; undefined
   * otherwise (the full path opens the connection, or bridges the eras).
   */
  passThrough<T>(
    pass: PassThroughCall,
    what: string,
    call: (client: McpClient, options: CallOptions) => Promise<T>,
    check: (answer: T) => T,
  ): Promise<T> | undefined {
    if (this.#state !== 'up' || pass.era !== 'legacy') return undefined;
    const token =
      this.settings.credentials === 'forward'
        ? bearerOfHeader(pass.header('authorization'))
        : undefined;
    // The link this caller's previous call took, while it serves the same session, token and
    // revision and is still open: no key string built and looked up per call.
    const caps = pass.clientCapabilities;
    const last = this.#passLinks.get(caps);
    let link: Link;
    if (
      last !== undefined &&
      last.sessionId === pass.sessionId &&
      last.token === token &&
      last.link.revision === pass.protocolVersion &&
      this.#links.get(last.link.key) === last.link
    )
      link = last.link;
    else {
      try {
        link = this.#linkFor(
          { sessionId: pass.sessionId, stateless: false, token, revision: pass.protocolVersion },
          caps,
        );
      } catch {
        return undefined; // no session can be opened now (maxSessions): the full path says so
      }
      this.#passLinks.set(caps, { link, sessionId: pass.sessionId, token });
    }
    const client = link.client;
    if (client === undefined || client.protocolVersion !== pass.protocolVersion) return undefined;
    link.reserved++;
    const meta = pass.params._meta as { progressToken?: unknown } | undefined;
    if (meta?.progressToken !== undefined)
      return this.#run(
        link,
        client,
        what,
        pass.ctx,
        true,
        (c, options) => call(c, options).then(check),
        pass,
      ).then(undefined, (error: unknown) => pass.failed(error) as T);
    return this.#pass(link, client, what, call, check, pass);
  }

  /**
   * A pass-through call without progress: what {@link #run} does, in one promise layer, with
   * the deadline of `#deadlines` instead of a timer of its own, and the call's `Context` built
   * only if the upstream asks the caller something. Its failures are answered through
   * `pass.failed` (core adds no promise around the call: `settlesFailures`).
   */
  #pass<T>(
    link: Link,
    client: McpClient,
    what: string,
    call: (client: McpClient, options: CallOptions) => Promise<T>,
    check: (answer: T) => T,
    pass: PassThroughCall,
  ): Promise<T> {
    const deadlines = this.#deadlines;
    const deadline = deadlines?.start(pass, what);
    link.calls.set(pass, pass);
    const end = (): unknown => {
      if (deadline) deadlines?.end(deadline);
      link.reserved--;
      link.calls.delete(pass);
      link.lastUsed = Date.now();
      if (link.refusals.size === 0) return undefined;
      const refusal = link.refusals.get(pass);
      link.refusals.delete(pass);
      return refusal;
    };
    let sent: Promise<T>;
    try {
      sent = call(client, { abortWith: deadline ?? pass, timeoutMs: Infinity });
    } catch (error) {
      sent = Promise.reject(error);
    }
    return sent.then(
      (answer) => {
        let result: T;
        try {
          result = check(answer);
        } catch (error) {
          return pass.failed(end() ?? this.#failure(link, what, error, undefined)) as T;
        }
        // Even when the upstream made an answer of it (an isError result).
        const refusal = end();
        return refusal ? (pass.failed(refusal) as T) : result;
      },
      (error: unknown) => pass.failed(end() ?? this.#failure(link, what, error, undefined)) as T,
    );
  }

  /**
   * Runs `call` on `link` (reserved by the caller) for the downstream call `ctx`; a pass-through
   * call is cancelled through `pass` (no `AbortSignal` is built for it).
   */
  async #run<T>(
    link: Link,
    client: McpClient,
    what: string,
    ctx: Context,
    progress: boolean,
    call: (client: McpClient, options: CallOptions) => Promise<T>,
    pass?: PassThroughCall,
  ): Promise<T> {
    // The caller's signal cancels the upstream request, and identifies the call when a
    // 2026-07-28 upstream asks for input (the client hands it to the input handlers).
    const signal = pass === undefined ? ctx.signal : undefined;
    const key: object = pass ?? (signal as AbortSignal);
    link.calls.set(key, ctx);
    const timeoutMs = this.settings.timeoutMs;
    try {
      const result = await call(
        client,
        progress
          ? {
              signal,
              abortWith: pass,
              timeoutMs,
              onProgress: (p: { progress: number; total?: number; message?: string }) =>
                ctx.progress(p.progress, p.total, p.message),
            }
          : { signal, abortWith: pass, timeoutMs },
      );
      // Even when the upstream made an answer of it (an isError result).
      const refusal = link.refusals.get(key);
      if (refusal) throw refusal;
      return result;
    } catch (error) {
      // The upstream failed because the caller lacks a capability its question needs: the
      // caller gets the refusal its own era defines (-32021 in 2026-07-28), not the upstream's.
      throw link.refusals.get(key) ?? this.#failure(link, what, error, signal);
    } finally {
      link.reserved--;
      link.refusals.delete(key);
      link.calls.delete(key);
      link.lastUsed = Date.now();
    }
  }

  /**
   * Subscribes to updates of these resources (the first 100) where the upstream offers
   * subscriptions, so that `resources/updated` reaches the proxy's subscribers.
   */
  async watchResources(uris: readonly string[]): Promise<void> {
    const client = this.#primary.client;
    const caps = client?.server.capabilities as { resources?: { subscribe?: boolean } } | undefined;
    const wanted = uris.slice(0, 100);
    const key = wanted.join('\n');
    if (!client || !caps?.resources?.subscribe || key === this.#watched) return;
    this.#watched = key;
    await this.#stopWatching?.().catch(() => {});
    this.#stopWatching = undefined;
    if (wanted.length === 0) return;
    try {
      const listening = await client.listen({ resourceUris: wanted }, (change) => {
        const uri = change.params.uri;
        if (typeof uri === 'string') this.settings.resourceUpdated(uri);
      });
      this.#stopWatching = () => listening.close();
    } catch (error) {
      this.#watched = '';
      this.settings.warn(
        `upstream "${this.settings.name}" refused resource subscriptions (${error instanceof Error ? error.message : String(error)}); updates of its resources are not passed on`,
      );
    }
  }

  /** Closes every connection this upstream opened (not a client given as the target). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#deadlines?.close();
    clearTimeout(this.#retry);
    clearInterval(this.#sweep);
    await this.#stopListening?.().catch(() => {});
    await this.#stopWatching?.().catch(() => {});
    const links = [this.#primary, ...this.#links.values()];
    this.#links.clear();
    await Promise.all(links.map((link) => this.#drop(link)));
  }

  #linkFor(caller: Caller, capabilities: Readonly<Record<string, unknown>>): Link {
    if (this.opener.shared || this.settings.sessions === 'shared') return this.#primary;
    const { token, sessionId: session } = caller;
    // The upstream session declares what the caller can answer, no more: an upstream that reads
    // its client's capabilities (to choose a question, or to refuse) sees the caller's.
    const asks = askable(capabilities);
    if (session === undefined && caller.stateless) return this.#pooled(token, asks);
    const revision = caller.revision;
    return this.#newLink(`${session ?? '-'}|${token ?? ''}|${asks.key}|${revision ?? ''}`, asks, {
      isolated: session !== undefined,
      pooled: false,
      revision,
    });
  }

  /**
   * A link for a stateless (2026-07-28, session-less) call: one no other call is using, so that
   * a question a legacy upstream asks on it can only be this call's. Such callers keep nothing
   * between calls, so any idle upstream session that declares the same capabilities serves
   * them: the most recently used, else a new one.
   */
  #pooled(token: string | undefined, asks: Askable): Link {
    const prefix = `*|${token ?? ''}|${asks.key}|`;
    let best: Link | undefined;
    for (const link of this.#links.values())
      if (link.pooled && idle(link) && link.key.startsWith(prefix))
        if (!best || link.lastUsed > best.lastUsed) best = link;
    return (
      best ??
      this.#newLink(`${prefix}${this.#nextPooled++}`, asks, {
        isolated: true,
        pooled: true,
        revision: undefined,
      })
    );
  }

  #newLink(
    key: string,
    asks: Askable,
    {
      isolated,
      pooled,
      revision,
    }: { isolated: boolean; pooled: boolean; revision: string | undefined },
  ): Link {
    let link = this.#links.get(key);
    if (!link) {
      if (this.#links.size >= this.settings.maxSessions) this.#evict();
      link = newLink(key, isolated, pooled, asks.capabilities, revision);
      this.#links.set(key, link);
      this.#sweep ??= setInterval(
        () => this.#evictIdle(),
        Math.max(1000, this.settings.idleMs / 2),
      );
      (this.#sweep as { unref?: () => void }).unref?.();
    }
    return link;
  }

  #headersFor(token: string | undefined): Readonly<Record<string, string>> {
    // Only the upstream configured to receive it gets the caller's token (see callerOfMiddleware);
    // without one, the proxy's own (if any) is used.
    return token === undefined
      ? this.opener.headers
      : { ...this.opener.headers, authorization: `Bearer ${token}` };
  }

  async #open(link: Link, headers: Readonly<Record<string, string>>): Promise<McpClient> {
    if (link.client) return link.client;
    if (this.#closed) throw new UserError(`Upstream "${this.settings.name}" is closed.`);
    const options: ConnectOptions = {
      ...this.settings.connect,
      timeoutMs: this.settings.timeoutMs,
      probeTimeoutMs: Math.min(3000, this.settings.timeoutMs),
      onWarning: this.settings.warn,
      onLog: (message) => this.#log(link, message),
      ...this.#asking(link),
      ...(this.opener.http ? { headers } : {}),
    };
    // The caller's own revision first, where nothing pins one; an upstream that does not speak
    // it (a 2026-07-28-only server) is connected to as negotiation decides.
    const revision =
      this.settings.connect.protocolVersion === undefined ? link.revision : undefined;
    link.opening ??= (
      revision === undefined
        ? this.opener.open(options)
        : this.opener
            .open({ ...options, protocolVersion: revision })
            .catch(() => this.opener.open(options))
    ).then(
      (client) => {
        link.client = client;
        link.opening = undefined;
        if (link === this.#primary) this.#up(client);
        else if (this.#state !== 'up') void this.primary().catch(() => {});
        return client;
      },
      (error: unknown) => {
        link.opening = undefined;
        if (link !== this.#primary) this.#links.delete(link.key);
        this.#down(error);
        throw new UserError(this.downMessage());
      },
    );
    return link.opening;
  }

  #up(client: McpClient): void {
    const wasUp = this.#state === 'up';
    this.#state = 'up';
    this.#error = undefined;
    this.#since = new Date();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    if (!wasUp) {
      this.#watched = '';
      void this.#listen(client);
      this.settings.changed();
    }
  }

  #down(error: unknown): void {
    if (this.#closed) return;
    const reason = error instanceof Error ? error.message : String(error);
    if (this.#state !== 'down') {
      this.#state = 'down';
      this.#since = new Date();
      this.settings.warn(`upstream "${this.settings.name}" is down: ${reason}`);
      this.settings.changed();
    }
    this.#error = reason;
    if (this.opener.shared || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.primary().catch(() => {});
    }, this.settings.retryMs);
    (this.#retry as { unref?: () => void }).unref?.();
  }

  async #listen(client: McpClient): Promise<void> {
    const caps = client.server.capabilities as Record<
      string,
      { listChanged?: boolean; subscribe?: boolean }
    >;
    const filter = {
      tools: caps.tools?.listChanged === true,
      prompts: caps.prompts?.listChanged === true,
      resources: caps.resources?.listChanged === true,
    };
    if (!filter.tools && !filter.prompts && !filter.resources) return;
    try {
      const listening = await client.listen(filter, (change) => {
        if (change.method === 'notifications/resources/updated') {
          const uri = (change as { params?: { uri?: unknown } }).params?.uri;
          if (typeof uri === 'string') this.settings.resourceUpdated(uri);
        } else this.settings.changed();
      });
      this.#stopListening = () => listening.close();
    } catch (error) {
      this.settings.warn(
        `upstream "${this.settings.name}" refused to report its list changes (${error instanceof Error ? error.message : String(error)}); its lists are read again only when it reconnects`,
      );
    }
  }

  /**
   * The link's input handlers and capabilities: it declares only what its callers can answer,
   * but keeps every handler, so that an upstream that asks anyway gets the caller's own refusal
   * (-32021 for a 2026-07-28 caller), not a bare "method not found".
   */
  #asking(link: Link): { handlers: InputHandlers; capabilities?: Record<string, unknown> } {
    const handlers = this.#handlers(link);
    const declared = link.capabilities;
    if (declared === undefined) return { handlers };
    // Undefined members are left out on the wire, overriding what the handlers would declare.
    const none = { elicitation: undefined, sampling: undefined, roots: undefined };
    return {
      handlers,
      capabilities: { ...this.settings.connect.capabilities, ...none, ...declared },
    };
  }

  #handlers(link: Link): InputHandlers {
    const refused = async <T>(
      info: InputInfo,
      method: string,
      ask: (ctx: Context) => Promise<T>,
      params?: Readonly<Record<string, unknown>>,
    ) => {
      const ctx = this.#asked(link, info, method);
      try {
        // A question of the upstream's task (2025-11-25 tags it, and it may come before the
        // task's id; a 2026-07-28 one comes while the client follows the task): the caller's
        // call becomes a task first, where it can — unless its tool asks first (caller.ts).
        const meta = params?._meta as Record<string, unknown> | undefined;
        await beforeQuestion(ctx, meta?.[RELATED_TASK] !== undefined);
        const answer = await ask(ctx);
        await afterAnswer(ctx);
        return answer;
      } catch (error) {
        // A caller without roots is not a failed call: the upstream hears the error and falls
        // back (server-filesystem serves its command-line folders), so only questions fail it.
        if (error instanceof ClientCapabilityError && method !== 'roots/list')
          for (const [signal, owner] of link.calls)
            if (contextOf(owner) === ctx) link.refusals.set(signal, error);
        throw error;
      }
    };
    // The upstream's key for a question (its inputRequests key, or the one an mcp-fw legacy
    // server tags its request with) names it to the caller too, so that a 2026-07-28 caller sees
    // the keys the upstream's handler chose; without one the caller's era numbers it.
    const keyed = (info: InputInfo) => (info.key === undefined ? {} : { key: info.key });
    return {
      elicitation: (request, info) =>
        refused(
          info,
          'elicitation/create',
          (ctx) => elicitThrough(ctx, request, keyed(info)),
          request as unknown as Record<string, unknown>,
        ),
      sampling: (request, info) =>
        refused(
          info,
          'sampling/createMessage',
          async (ctx) =>
            (await ctx.sample(
              withoutKey(request) as Parameters<Context['sample']>[0],
              keyed(info),
            )) as unknown as Record<string, unknown>,
          request,
        ),
      roots: (info) => refused(info, 'roots/list', (ctx) => ctx.roots(keyed(info))),
    };
  }

  /** The downstream call an upstream question belongs to; a refusal when it cannot be told. */
  #asked(link: Link, info: InputInfo, method: string): Context {
    const owner = info.signal && link.calls.get(info.signal);
    if (owner) return contextOf(owner);
    const calls = [...link.calls.values()];
    // A connection of one session: its latest call asks. A shared one: only an unambiguous call,
    // never a guess that could show one client's question to another.
    if (calls.length === 1 || (link.isolated && calls.length > 0))
      return contextOf(calls[calls.length - 1]);
    throw new JsonRpcError(
      -32603,
      calls.length === 0
        ? `The proxy for "${this.settings.name}" has no call in progress to ask ${method} through`
        : `The proxy for "${this.settings.name}" cannot tell which of ${calls.length} calls ${method} belongs to (a shared upstream session); give each caller its own session (sessions: 'per-client')`,
    );
  }

  /** Log messages go to the connection's one call in progress, at most `maxLogsPerSecond`. */
  #log(link: Link, message: LogMessage): void {
    const calls = [...link.calls.values()];
    if (calls.length === 0 || (!link.isolated && calls.length > 1)) return;
    const now = Date.now();
    if (now - link.logWindow >= 1000) {
      if (link.dropped > 0)
        this.settings.warn(
          `upstream "${this.settings.name}" sent ${link.dropped} more log messages than maxLogsPerSecond (${this.settings.maxLogsPerSecond}); they were dropped`,
        );
      link.logWindow = now;
      link.logCount = 0;
      link.dropped = 0;
    }
    if (++link.logCount > this.settings.maxLogsPerSecond) {
      link.dropped++;
      return;
    }
    const level = message.level as keyof Context['log'];
    const log = contextOf(calls[calls.length - 1]).log;
    (typeof log[level] === 'function' ? log[level] : log.info)(message.data, message.logger);
  }

  #failure(link: Link, what: string, error: unknown, signal: AbortSignal | undefined): unknown {
    // (A cancelled pass-through call is never answered: what it fails with does not matter.)
    if (signal?.aborted) return signal.reason ?? error;
    const name = this.settings.name;
    // The upstream needs a capability the caller lacks (it was told the caller's): the caller
    // gets its own era's refusal (-32021 again, or an isError result naming it).
    const required = (error as { data?: { requiredCapabilities?: unknown } }).data
      ?.requiredCapabilities;
    if (
      error instanceof JsonRpcError &&
      error.code === -32021 &&
      typeof required === 'object' &&
      required !== null
    )
      return new MissingCapabilityError(
        `Upstream "${name}": ${error.message}`,
        required as Record<string, unknown>,
      );
    if (error instanceof JsonRpcError)
      return new UpstreamRpcError(error.code, `Upstream "${name}": ${error.message}`, error.data);
    if (error instanceof RequestTimeoutError)
      return new UserError(
        `Upstream "${name}" did not answer ${what} within ${this.settings.timeoutMs} ms (the proxy's timeoutMs for it)`,
      );
    if (error instanceof TransportError) {
      // The connection is gone: the next call opens a new one.
      this.#links.delete(link.key);
      void this.#drop(link);
      if (link === this.#primary || this.opener.shared) this.#down(error);
      else void this.primary().catch(() => {});
      return new UserError(
        `Upstream "${name}" (${this.opener.describe}) failed during ${what}: ${error.message}`,
      );
    }
    if (error instanceof UserError) return error;
    return new UserError(
      `Upstream "${name}" answered ${what} with something the proxy cannot use: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  async #drop(link: Link): Promise<void> {
    const client = link.client;
    link.client = undefined;
    if (client && client !== this.opener.shared) await client.close().catch(() => {});
  }

  #evict(): void {
    let oldest: Link | undefined;
    for (const link of this.#links.values())
      if (idle(link) && (!oldest || link.lastUsed < oldest.lastUsed)) oldest = link;
    if (!oldest)
      throw new UserError(
        `The proxy for "${this.settings.name}" serves ${this.settings.maxSessions} callers already, each with a call in progress (maxSessions); try again shortly`,
      );
    this.#links.delete(oldest.key);
    void this.#drop(oldest);
  }

  #evictIdle(): void {
    const now = Date.now();
    for (const link of [...this.#links.values()])
      if (idle(link) && now - link.lastUsed >= this.settings.idleMs) {
        this.#links.delete(link.key);
        void this.#drop(link);
      }
  }
}

/** The `Context` of a call in `Link.calls` (a pass-through call's is built on first use). */
function contextOf(owner: Context | PassThroughCall): Context {
  return 'ctx' in owner ? owner.ctx : owner;
}

function newLink(
  key: string,
  isolated: boolean,
  pooled: boolean,
  capabilities: Readonly<Record<string, unknown>> | undefined,
  revision: string | undefined,
): Link {
  return {
    key,
    isolated,
    pooled,
    capabilities,
    revision,
    reserved: 0,
    calls: new Map(),
    refusals: new Map(),
    lastUsed: Date.now(),
    logWindow: 0,
    logCount: 0,
    dropped: 0,
  };
}

/** Who a forwarded call is for, as far as choosing its upstream connection goes. */
interface Caller {
  /** The downstream session (undefined on the shared stateless HTTP connection). */
  readonly sessionId: string | undefined;
  /** The revision a legacy caller speaks (undefined for a 2026-07-28 caller). */
  readonly revision: string | undefined;
  /** A 2026-07-28 request: it keeps nothing between calls. */
  readonly stateless: boolean;
  /** The caller's bearer token, where the upstream is set to receive it (`credentials: 'forward'`). */
  readonly token: string | undefined;
}

function callerOfMiddleware(
  mctx: MiddlewareContext | undefined,
  ctx: Context,
  credentials: UpstreamSettings['credentials'],
): Caller {
  return {
    sessionId: mctx?.sessionId,
    revision: mctx?.era === 'legacy' ? ctx.protocolVersion : undefined,
    stateless: mctx?.era === 'modern',
    token: credentials === 'forward' ? bearerOf(mctx) : undefined,
  };
}

/** The `_meta` key tagging a 2025-11-25 request with the task it belongs to. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** What a caller can answer, as an upstream session declares it, and a key naming that. */
interface Askable {
  readonly key: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/**
 * The part of a caller's capabilities that the upstream's questions depend on: elicitation
 * (with its modes; `{}` is form only), sampling (with its sub-capabilities: tools, context) and
 * roots. Only the names of known members are kept, so that a caller cannot make the proxy open
 * an upstream session per distinct capability object it invents.
 */
function askable(caps: Readonly<Record<string, unknown>> | undefined): Askable {
  // A legacy session hands every call the same object: read it once.
  const known = caps === undefined ? undefined : askables.get(caps);
  if (known) return known;
  const made = readAskable(caps);
  if (caps !== undefined) askables.set(caps, made);
  return made;
}

const askables = new WeakMap<object, Askable>();

function readAskable(caps: Readonly<Record<string, unknown>> | undefined): Askable {
  const names = (value: unknown, known: readonly string[]) =>
    typeof value === 'object' && value !== null
      ? known.filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      : [];
  const capabilities: Record<string, unknown> = {};
  const key: string[] = [];
  if (caps?.elicitation !== undefined) {
    const modes = names(caps.elicitation, ['form', 'url']);
    capabilities.elicitation = Object.fromEntries(modes.map((m) => [m, {}]));
    key.push(`e:${modes.join(',')}`);
  }
  if (caps?.sampling !== undefined) {
    const parts = names(caps.sampling, ['context', 'tools']);
    capabilities.sampling = Object.fromEntries(parts.map((m) => [m, {}]));
    key.push(`s:${parts.join(',')}`);
  }
  if (caps?.roots !== undefined) {
    capabilities.roots = {};
    key.push('r');
  }
  return { key: key.join(';'), capabilities };
}

/** No call uses the link, nor is about to. */
function idle(link: Link): boolean {
  return link.reserved === 0 && link.calls.size === 0;
}

/** An upstream's elicitation, asked of the downstream caller in its own era. */
async function elicitThrough(
  ctx: Context,
  request: ElicitRequest,
  options: { key?: string },
): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }> {
  if (request.mode === 'url' && typeof request.url === 'string') {
    const { action } = await ctx.elicitUrl(request.message, request.url, options);
    return { action };
  }
  const schema = request.requestedSchema ?? { type: 'object', properties: {} };
  const answer = await ctx.elicit(request.message, schema, options);
  return answer.action === 'accept'
    ? { action: 'accept', content: answer.content as Record<string, unknown> }
    : { action: answer.action };
}

/** A sampling request without the upstream's key tag (the caller's own era tags it anew). */
function withoutKey(request: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const meta = request._meta as Record<string, unknown> | undefined;
  if (!meta || !(INPUT_KEY_META in meta)) return { ...request };
  const { [INPUT_KEY_META]: _key, ...rest } = meta;
  const { _meta, ...payload } = request;
  return Object.keys(rest).length > 0 ? { ...payload, _meta: rest } : payload;
}
