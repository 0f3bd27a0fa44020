import {
  JsonRpcCode,
  JsonRpcError,
  SUBSCRIPTION_ID,
  subscriptionTag,
  type Channel,
  type ChannelSink,
  type EraMode,
  type FrameRoute,
  type ListName,
  type ServedConnection,
} from '@mcp-fw/core/transport';
import { CallTable, type Attachment, type ClientCall } from './call-table.js';
import { widenCapabilities } from './capabilities.js';
import type { ChildLink } from './child-link.js';
import { FrameTokens } from './frame-tokens.js';
import {
  answerWhileDown,
  errorOf,
  retag,
  type Message,
  type NotificationMessage,
  type RequestMessage,
} from './messages.js';
import { InputRounds } from './input-rounds.js';
import { idKey, SessionState, type ListenRecord } from './session-state.js';
import {
  listChangedNotices,
  logNotices,
  type Notice,
  resourceUpdatedNotices,
} from './session-notices.js';

/** Where a session's traffic goes: the supervisor tells it when this changes. */
export interface SessionEnv {
  /** A fresh connection number on the mux pipes (unique across children). */
  nextConnection(): number;
  /** The `initialize` answer to give while no child can serve (widened, as the relay does). */
  initializeFallback(params: Record<string, unknown> | undefined): Record<string, unknown>;
  closed(session: RelaySession): void;
}

type Frame = Parameters<ChannelSink['frame']>;

/** The frame being built for one child, with the token its answers will carry. */
interface Outgoing {
  readonly token: number;
  readonly messages: unknown[];
}

type Outbox = (at: Attachment) => Outgoing;

/**
 * One client session of `mcp-fw dev`, relayed to whichever child serves now. The client's
 * channel (stdio, or an HTTP session) stays with the supervisor; the session's connection on a
 * child is replaced on reload after replaying the session's state, while calls still in flight
 * on the old child finish there. Every id is rewritten (see {@link CallTable}) and every frame
 * keeps its route, so answers, progress and server requests reach the right client stream.
 */
export class RelaySession implements ServedConnection {
  /** What `serveStdio` and the HTTP endpoint drive, as they would a core connection's engine. */
  readonly engine: ServedConnection['engine'];
  readonly #channel: Channel;
  readonly #mode: EraMode | undefined;
  readonly #env: SessionEnv;
  readonly #state = new SessionState();
  readonly #calls = new CallTable();
  readonly #tokens = new FrameTokens();
  readonly #endListeners: (() => void)[] = [];
  #current?: Attachment;
  /** Connections on replaced children, closed once nothing is outstanding on them. */
  readonly #previous = new Set<Attachment>();
  readonly #rounds = new InputRounds();
  #down?: string;
  /** Frames held while the session switches children (or waits for its first one). */
  #queue?: Frame[] = [];
  #idle?: () => void;
  #closed = false;

  constructor(channel: Channel, mode: EraMode | undefined, env: SessionEnv) {
    this.#channel = channel;
    this.#mode = mode;
    this.#env = env;
    this.engine = {
      close: (grace) => this.close(grace),
      onInputEnded: (listener) => void this.#endListeners.push(listener),
    };
    channel.start({
      frame: (...frame) =>
        this.#queue ? void this.#queue.push(frame) : this.#fromClient(...frame),
      oversize: (bytes, limit) =>
        this.#send(
          errorOf(
            null,
            JsonRpcCode.InvalidRequest,
            `Invalid Request: message of ${bytes} bytes exceeds the limit of ${limit} bytes`,
          ),
        ),
      ended: () => {
        for (const listener of this.#endListeners) listener();
        if (this.#current) this.#current.link.send({ t: 'ended', s: this.#current.s });
      },
      abandoned: (origin) => {
        for (const [o, token] of this.#tokens.entries())
          if (token.origin === origin) token.at.link.send({ t: 'abandoned', s: token.at.s, o });
      },
    });
  }

  /**
   * Moves the session to `link`: opens a connection there, replays the session's state (the
   * legacy handshake, log level, subscriptions, open listen streams), then sends new traffic
   * there. Calls in flight stay on the previous child; client frames wait meanwhile.
   */
  async switchTo(link: ChildLink): Promise<void> {
    this.#queue ??= [];
    const at = this.#open(link);
    for (const step of this.#state.replaySteps()) {
      if (step.kind === 'notification') this.#internalNotify(at, step.method);
      else await this.#internal(at, step.method, step.params).catch(() => undefined);
    }
    for (const listen of this.#state.listens.values()) this.#moveListen(listen, at);
    this.#retireAttachment(this.#current);
    this.#current = at;
    this.#down = undefined;
    this.#release();
  }

  /** No child can serve: requests get `error` (one sentence naming the failure) until the next switch. */
  fail(error: string): void {
    this.#retireAttachment(this.#current);
    this.#current = undefined;
    this.#down = error;
    for (const listen of this.#state.listens.values()) this.#parkListen(listen);
    this.#notify(logNotices(this.#state, 'error', error));
    this.#release();
  }

  /** Tells the client which lists a reload changed, the way its revision expects. */
  listsChanged(lists: readonly ListName[]): void {
    this.#notify(listChangedNotices(this.#state, lists));
  }

  /** Tells the client that the resources at `uris` changed, where it follows them. */
  resourcesUpdated(uris: readonly string[]): void {
    this.#notify(resourceUpdatedNotices(this.#state, uris));
  }

  /** Stops relaying once calls in flight are answered or `graceMs` passed. */
  async close(graceMs = 0): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (graceMs > 0 && this.#calls.clientCallsInFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.#idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    for (const at of [this.#current, ...this.#previous]) if (at) at.link.close(at.s, 0);
    await this.#channel.close();
    this.#env.closed(this);
  }

  // ── client → child ──────────────────────────────────────────────────────────────────────

  #fromClient(
    text: string,
    origin: unknown,
    peer?: { remoteAddress?: string },
    parsed?: { value: unknown },
  ): void {
    let value: unknown;
    try {
      value = parsed ? parsed.value : JSON.parse(text);
    } catch (error) {
      // The child's engine answers malformed frames exactly as a production server would.
      if (this.#current)
        return this.#forward(this.#current, text, this.#tokens.create(origin, this.#current), peer);
      return this.#answer(
        [errorOf(null, JsonRpcCode.ParseError, `Parse error: ${(error as Error).message}`)],
        false,
        origin,
      );
    }
    const batch = Array.isArray(value);
    const answers: Message[] = [];
    const forwards = new Map<Attachment, Outgoing>();
    const to: Outbox = (at) => {
      let entry = forwards.get(at);
      if (!entry)
        forwards.set(at, (entry = { token: this.#tokens.create(origin, at), messages: [] }));
      return entry;
    };
    for (const item of batch ? (value as unknown[]) : [value])
      this.#routeClient(item, origin, to, answers);
    if (answers.length) this.#answer(answers, batch, origin);
    for (const [at, { token, messages }] of forwards)
      this.#forward(at, JSON.stringify(batch ? messages : messages[0]), token, peer);
    if (forwards.size === 0) this.#settleClient(origin);
  }

  #routeClient(item: unknown, origin: unknown, to: Outbox, answers: Message[]): void {
    const m = item as Message;
    const current = this.#current;
    if (typeof m === 'object' && m !== null && typeof m.method === 'string') {
      if (!('id' in m)) return this.#clientNotification(m as NotificationMessage, to);
      return this.#clientRequest(m as RequestMessage, origin, to, answers);
    }
    if (typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m)) {
      // An answer to a child's request goes back to that child, even one being retired.
      const request = this.#calls.takeServerRequest(m.id);
      if (request?.at.link.alive) to(request.at).messages.push({ ...m, id: request.childId });
      if (request) this.#drain(request.at);
      return;
    }
    // Anything else is malformed: the child's engine gives the same answer production would.
    if (current) to(current).messages.push(item);
    else
      answers.push(
        errorOf(
          null,
          JsonRpcCode.InvalidRequest,
          'Invalid Request: expected a request, a notification or a response',
        ),
      );
  }

  /** A client's request: to the child that can serve it, or answered here while none can. */
  #clientRequest(m: RequestMessage, origin: unknown, to: Outbox, answers: Message[]): void {
    this.#state.observeRequest(m.method, m.params);
    const target = this.#ownerOf(m.params?.requestState) ?? this.#current;
    if (!target && m.method === 'subscriptions/listen') return this.#parkNewListen(m, origin);
    if (!target)
      return void answers.push(answerWhileDown(m, this.#down!, this.#env.initializeFallback));
    const out = to(target);
    const childId = this.#calls.add({
      kind: 'client',
      clientId: m.id,
      method: m.method,
      at: target,
      token: out.token,
    });
    if (m.method === 'subscriptions/listen') {
      this.#state.listens.set(idKey(m.id), {
        clientId: m.id,
        params: m.params ?? {},
        origin,
        childId,
      });
    }
    out.messages.push({ ...m, id: childId });
  }

  #clientNotification(m: NotificationMessage, to: Outbox): void {
    this.#state.observeNotification(m.method);
    if (m.method === 'notifications/cancelled') {
      // A cancel that names no request cancels nothing (and is not passed on).
      const clientId = m.params?.requestId;
      const listen = clientId === undefined ? undefined : this.#state.listens.get(idKey(clientId));
      if (listen) this.#state.listens.delete(idKey(listen.clientId));
      const childId = clientId === undefined ? undefined : this.#calls.childIdOf(clientId);
      const call = childId === undefined ? undefined : (this.#calls.take(childId) as ClientCall);
      if (call) to(call.at).messages.push({ ...m, params: { ...m.params, requestId: childId } });
      else if (listen) this.#settleClient(listen.origin);
      this.#checkIdle();
      return;
    }
    if (this.#current) to(this.#current).messages.push(m);
  }

  // ── child → client ──────────────────────────────────────────────────────────────────────

  #fromChild(
    at: Attachment,
    frame: string,
    o: number | undefined,
    final: boolean | undefined,
  ): void {
    const value = JSON.parse(frame) as unknown;
    const batch = Array.isArray(value);
    const token = o === undefined ? undefined : this.#tokens.get(o);
    const related = token !== undefined && !token.internal;
    const out: Message[] = [];
    for (const item of batch ? (value as Message[]) : [value as Message]) {
      const mapped = this.#mapFromChild(at, item, related);
      if (mapped) out.push(mapped);
    }
    if (out.length === 0 || token?.internal) return;
    const message = batch ? out : out[0];
    if (!token) return this.#send(message);
    const route: FrameRoute = { origin: token.origin, final: final ?? false };
    const wait = this.#tokens.delayFor(token, route.final);
    if (wait <= 0) return this.#send(message, route);
    token.held = new Promise((resolve) => setTimeout(resolve, wait)).then(() =>
      this.#send(message, route),
    );
  }

  #mapFromChild(at: Attachment, m: Message, related: boolean): Message | undefined {
    if (typeof m.method !== 'string') return this.#answerFromChild(at, m);
    // A retired child still finishes its calls: only what relates to one of them gets through.
    if (this.#current !== at && !related) return undefined;
    if ('id' in m) {
      const { id } = m as RequestMessage;
      return { ...m, id: this.#calls.addServerRequest({ at, childId: id }) };
    }
    if (m.method === 'notifications/cancelled') {
      const id = this.#calls.findServerRequest(at.link, m.params?.requestId);
      if (id === undefined) return undefined;
      this.#calls.takeServerRequest(id);
      return { ...m, params: { ...m.params, requestId: id } };
    }
    const params = m.params;
    const tag = params?._meta?.[SUBSCRIPTION_ID];
    if (params === undefined || tag === undefined) return m;
    const call = this.#calls.get(tag);
    if (call?.kind !== 'client' || call.at !== at) return undefined;
    if (call.replayed && m.method === 'notifications/subscriptions/acknowledged') return undefined;
    return { ...m, params: retag(params, call.clientId) };
  }

  #answerFromChild(at: Attachment, m: Message): Message | undefined {
    const call = this.#calls.get(m.id);
    if (!call || call.at !== at) return undefined;
    this.#calls.take(m.id);
    this.#checkIdle();
    this.#rounds.issued(m.result, at);
    this.#drain(at);
    if (call.kind === 'internal') {
      if (m.error) call.reject(new JsonRpcError(m.error.code, m.error.message, m.error.data));
      else call.resolve(m.result);
      return undefined;
    }
    let result = m.result as Message | undefined;
    if (call.method === 'subscriptions/listen') {
      this.#state.listens.delete(idKey(call.clientId));
      if (result) result = retag(result, call.clientId);
    }
    if (result && (call.method === 'initialize' || call.method === 'server/discover'))
      result = widenCapabilities(result);
    return result ? { ...m, id: call.clientId, result } : { ...m, id: call.clientId };
  }

  #settled(o: number): void {
    const token = this.#tokens.take(o);
    if (!token || token.internal) return;
    if (token.held) void token.held.then(() => this.#settleClient(token.origin));
    else this.#settleClient(token.origin);
  }

  /** A child exited: what it still owed this session is answered here, with the reason. */
  #lost(link: ChildLink, reason: string): void {
    const { calls, serverRequests } = this.#calls.takeAllOn(link);
    for (const call of calls) {
      if (call.kind === 'internal') {
        call.reject(new Error(reason));
        continue;
      }
      const listen = this.#state.listens.get(idKey(call.clientId));
      if (call.method === 'subscriptions/listen' && listen) {
        listen.childId = undefined;
        continue;
      }
      const token = this.#tokens.get(call.token);
      const message = `mcp-fw dev: ${call.method} was not answered: ${reason}. Call it again.`;
      this.#send(
        errorOf(call.clientId, JsonRpcCode.InternalError, message),
        token && { origin: token.origin, final: true },
      );
    }
    for (const requestId of serverRequests) {
      this.#send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason },
      });
    }
    for (const [o, token] of [...this.#tokens.entries()])
      if (token.at.link === link) this.#settled(o);
    this.#rounds.forget(link);
    for (const at of this.#previous) if (at.link === link) this.#previous.delete(at);
    this.#checkIdle();
  }

  /** The live connection that issued `requestState`, which the retry must go back to. */
  #ownerOf(state: unknown): Attachment | undefined {
    const at = this.#rounds.take(state);
    if (at) queueMicrotask(() => this.#drain(at));
    return at?.link.alive ? at : undefined;
  }

  #retireAttachment(at: Attachment | undefined): void {
    if (!at) return;
    this.#previous.add(at);
    this.#drain(at);
  }

  /** Closes a replaced connection once no call, request or input round is left on it. */
  #drain(at: Attachment): void {
    if (!this.#previous.has(at) || this.#calls.busy(at) || this.#rounds.pendingOn(at)) return;
    this.#previous.delete(at);
    at.link.close(at.s, 0);
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────

  #open(link: ChildLink): Attachment {
    const at: Attachment = { link, s: this.#env.nextConnection() };
    link.open(
      at.s,
      {
        out: (frame, o, final) => this.#fromChild(at, frame, o, final),
        settle: (o) => this.#settled(o),
        closed: () => {},
      },
      this.#mode,
      this.#channel.id,
      this.#channel.remote,
    );
    void link.exited.then(() => this.#lost(link, link.exitReason));
    return at;
  }

  #moveListen(listen: ListenRecord, at: Attachment): void {
    // The new stream is registered before the old one is cancelled: the client's stream never
    // looks finished in between.
    const token = this.#tokens.create(listen.origin, at);
    const previous = listen.childId;
    const childId = this.#calls.add({
      kind: 'client',
      clientId: listen.clientId,
      method: 'subscriptions/listen',
      at,
      token,
      replayed: true,
    });
    if (previous !== undefined) this.#cancelOnChild(previous);
    listen.childId = childId;
    this.#forward(
      at,
      JSON.stringify({
        jsonrpc: '2.0',
        id: childId,
        method: 'subscriptions/listen',
        params: listen.params,
      }),
      token,
    );
  }

  /** A listen request while no child serves: acknowledged now, served by the next child. */
  #parkNewListen(m: RequestMessage, origin: unknown): void {
    this.#state.listens.set(idKey(m.id), { clientId: m.id, params: m.params ?? {}, origin });
    const params = { notifications: m.params?.notifications ?? {}, _meta: subscriptionTag(m.id) };
    this.#send(
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params },
      { origin, final: false },
    );
  }

  #parkListen(listen: ListenRecord): void {
    if (listen.childId !== undefined) this.#cancelOnChild(listen.childId);
    listen.childId = undefined;
  }

  /** Ends a call on its child without telling the client (it moved, or nobody serves it now). */
  #cancelOnChild(childId: number): void {
    const call = this.#calls.get(childId);
    if (!call) return;
    if (call.kind === 'client') this.#calls.take(childId);
    const params = { requestId: childId, reason: 'mcp-fw dev reloaded the server' };
    this.#forward(
      call.at,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params }),
      this.#tokens.create(undefined, call.at, true),
    );
  }

  #internal(at: Attachment, method: string, params: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.#calls.add({ kind: 'internal', at, resolve, reject });
      this.#forward(
        at,
        JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        this.#tokens.create(undefined, at, true),
      );
    });
  }

  #internalNotify(at: Attachment, method: string): void {
    this.#forward(
      at,
      JSON.stringify({ jsonrpc: '2.0', method }),
      this.#tokens.create(undefined, at, true),
    );
  }

  #forward(at: Attachment, frame: string, o: number, peer?: { remoteAddress?: string }): void {
    const remoteAddress = peer?.remoteAddress;
    at.link.send({
      t: 'in',
      s: at.s,
      f: frame,
      o,
      ...(remoteAddress ? { peer: { remoteAddress } } : {}),
    });
  }

  #answer(answers: Message[], batch: boolean, origin: unknown): void {
    this.#send(batch ? answers : answers[0], { origin, final: true });
    this.#settleClient(origin);
  }

  /** Tells the client transport that nothing more follows for `origin`, once that is true. */
  #settleClient(origin: unknown): void {
    if (this.#tokens.outstanding(origin) || this.#state.holds(origin)) return;
    this.#channel.settle?.(origin);
  }

  #send(message: unknown, route?: FrameRoute): void {
    if (!this.#closed || route) this.#channel.send(JSON.stringify(message), route);
  }

  #release(): void {
    const queue = this.#queue;
    this.#queue = undefined;
    for (const frame of queue ?? []) this.#fromClient(...frame);
  }

  #checkIdle(): void {
    if (this.#calls.clientCallsInFlight === 0) this.#idle?.();
  }

  #notify(notices: readonly Notice[]): void {
    for (const [message, route] of notices) this.#send(message, route);
  }
}
