import { performance } from 'node:perf_hooks';
import type { Channel, ChannelSink, EraMode, FrameRoute } from '../client/channel-types.js';
import { RpcError } from '../client/jsonrpc-peer.js';
import type { ListName } from '../client/lists.js';
import { CallTable, type Attachment, type ClientCall } from './call-table.js';
import { widenCapabilities } from './capabilities.js';
import type { ChildLink } from './child-link.js';
import { idKey, SessionState, type ListenRecord } from './session-state.js';

/** Where a session's traffic goes: the supervisor tells it when this changes. */
export interface SessionEnv {
  /** A fresh connection number on the mux pipes (unique across children). */
  nextConnection(): number;
  /** The `initialize` answer to give while no child can serve (widened, as the relay does). */
  initializeFallback(params: Record<string, unknown> | undefined): Record<string, unknown>;
  closed(session: RelaySession): void;
}

type Message = Record<string, any>;
type Frame = Parameters<ChannelSink['frame']>;

/** The frame being built for one child, with the token its answers will carry. */
interface Outgoing {
  readonly token: number;
  readonly messages: unknown[];
}

type Outbox = (at: Attachment) => Outgoing;

interface Token {
  readonly origin: unknown;
  readonly at: Attachment;
  /** Frames about the supervisor's own requests: never shown to the client. */
  readonly internal: boolean;
  /** When a message sent on behalf of the frame (progress, a log) was last relayed. */
  lastMessageAt?: number;
  /** The frame's answer, held back for {@link ANSWER_GAP_MS}. */
  held?: Promise<void>;
}

// Official clients run notification handlers on a microtask but responses at once, and the
// response removes the request's progress handler: a progress notification read in the same
// chunk as its response is lost (client 2.4, Protocol._onresponse). Relaying adds a hop that
// makes such chunks likelier, so an answer right behind its own messages waits a moment.
const ANSWER_GAP_MS = 20;

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * One client session of `mcp-fw dev`, relayed to whichever child serves now. The client's
 * channel (stdio, or an HTTP session) stays with the supervisor; the session's connection on a
 * child is replaced on reload after replaying the session's state, while calls still in flight
 * on the old child finish there. Every id is rewritten (see {@link CallTable}) and every frame
 * keeps its route, so answers, progress and server requests reach the right client stream.
 */
export class RelaySession {
  /** What `serveStdio` and the HTTP endpoint drive, as they would a core connection's engine. */
  readonly engine: { close(graceMs?: number): Promise<void>; onInputEnded(listener: () => void): void };
  readonly #channel: Channel;
  readonly #mode: EraMode;
  readonly #env: SessionEnv;
  readonly #state = new SessionState();
  readonly #calls = new CallTable();
  readonly #tokens = new Map<number, Token>();
  readonly #endListeners: (() => void)[] = [];
  #nextToken = 1;
  #current?: Attachment;
  /** Connections on replaced children, closed once nothing is outstanding on them. */
  readonly #previous = new Set<Attachment>();
  /**
   * 2026-07-28 input rounds: each `requestState` a child issued, so the retry goes back to the
   * child whose handler is waiting (after a reload too: the call finishes on the old code).
   */
  readonly #states = new Map<string, Attachment>();
  #down?: string;
  /** Frames held while the session switches children (or waits for its first one). */
  #queue?: Frame[] = [];
  #idle?: () => void;
  #closed = false;

  constructor(channel: Channel, mode: EraMode, env: SessionEnv) {
    this.#channel = channel;
    this.#mode = mode;
    this.#env = env;
    this.engine = { close: (grace) => this.close(grace), onInputEnded: (listener) => void this.#endListeners.push(listener) };
    channel.start({
      frame: (...frame) => (this.#queue ? void this.#queue.push(frame) : this.#fromClient(...frame)),
      oversize: (bytes, limit) =>
        this.#send(errorOf(null, -32600, `Invalid Request: message of ${bytes} bytes exceeds the limit of ${limit} bytes`)),
      ended: () => {
        for (const listener of this.#endListeners) listener();
        if (this.#current) this.#current.link.send({ t: 'ended', s: this.#current.s });
      },
      abandoned: (origin) => {
        for (const [o, token] of this.#tokens) if (token.origin === origin) token.at.link.send({ t: 'abandoned', s: token.at.s, o });
      },
    });
  }

  /** The child serving this session now, if any. */
  get link(): ChildLink | undefined {
    return this.#current?.link;
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
    this.#log('error', error);
    this.#release();
  }

  /** Tells the client which lists a reload changed, the way its revision expects. */
  listsChanged(lists: readonly ListName[]): void {
    if (this.#state.legacy) {
      if (this.#state.initialized) for (const list of lists) this.#send({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
      return;
    }
    for (const listen of this.#state.listens.values()) {
      const wanted = (listen.params.notifications ?? {}) as Record<string, unknown>;
      for (const list of lists) {
        if (!wanted[`${list}ListChanged`]) continue;
        const params = { _meta: { [SUBSCRIPTION_ID]: listen.clientId } };
        this.#send({ jsonrpc: '2.0', method: `notifications/${list}/list_changed`, params }, { origin: listen.origin, final: false });
      }
    }
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

  #fromClient(text: string, origin: unknown, peer?: { remoteAddress?: string }, parsed?: { value: unknown }): void {
    let value: unknown;
    try {
      value = parsed ? parsed.value : JSON.parse(text);
    } catch (error) {
      // The child's engine answers malformed frames exactly as a production server would.
      if (this.#current) return this.#forward(this.#current, text, this.#token(origin, this.#current), peer);
      return this.#answer([errorOf(null, -32700, `Parse error: ${(error as Error).message}`)], false, origin);
    }
    const batch = Array.isArray(value);
    const answers: Message[] = [];
    const forwards = new Map<Attachment, Outgoing>();
    const to: Outbox = (at) => {
      let entry = forwards.get(at);
      if (!entry) forwards.set(at, (entry = { token: this.#token(origin, at), messages: [] }));
      return entry;
    };
    for (const item of batch ? (value as unknown[]) : [value]) this.#routeClient(item, origin, to, answers);
    if (answers.length) this.#answer(answers, batch, origin);
    for (const [at, { token, messages }] of forwards) this.#forward(at, JSON.stringify(batch ? messages : messages[0]), token, peer);
    if (forwards.size === 0) this.#settleClient(origin);
  }

  #routeClient(item: unknown, origin: unknown, to: Outbox, answers: Message[]): void {
    const m = item as Message;
    const current = this.#current;
    if (typeof m === 'object' && m !== null && typeof m.method === 'string') {
      if (!('id' in m)) return this.#clientNotification(m, to);
      this.#state.observeRequest(m.method, m.params);
      const target = this.#ownerOf(m.params?.requestState) ?? current;
      if (!target) {
        const answer = this.#answerDown(m, origin);
        if (answer) answers.push(answer);
        return;
      }
      const out = to(target);
      const childId = this.#calls.add({ kind: 'client', clientId: m.id, method: m.method, at: target, token: out.token });
      if (m.method === 'subscriptions/listen') {
        this.#state.listens.set(idKey(m.id), { clientId: m.id, params: m.params ?? {}, origin, childId });
      }
      out.messages.push({ ...m, id: childId });
      return;
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
    else answers.push(errorOf(null, -32600, 'Invalid Request: expected a request, a notification or a response'));
  }

  #clientNotification(m: Message, to: Outbox): void {
    this.#state.observeNotification(m.method);
    if (m.method === 'notifications/cancelled') {
      const clientId = m.params?.requestId;
      const listen = this.#state.listens.get(idKey(clientId));
      if (listen) this.#state.listens.delete(idKey(clientId));
      const childId = this.#calls.childIdOf(clientId);
      const call = childId === undefined ? undefined : (this.#calls.take(childId) as ClientCall);
      if (call) to(call.at).messages.push({ ...m, params: { ...m.params, requestId: childId } });
      else if (listen) this.#settleClient(listen.origin);
      this.#checkIdle();
      return;
    }
    if (this.#current) to(this.#current).messages.push(m);
  }

  /** What a request gets while no child serves: the failure, except for what needs no server. */
  #answerDown(m: Message, origin: unknown): Message | undefined {
    switch (m.method) {
      case 'ping':
      case 'logging/setLevel':
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return { jsonrpc: '2.0', id: m.id, result: {} };
      case 'initialize':
        return { jsonrpc: '2.0', id: m.id, result: this.#env.initializeFallback(m.params) };
      case 'subscriptions/listen': {
        this.#state.listens.set(idKey(m.id), { clientId: m.id, params: m.params ?? {}, origin });
        const params = { notifications: m.params?.notifications ?? {}, _meta: { [SUBSCRIPTION_ID]: m.id } };
        this.#send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params }, { origin, final: false });
        return undefined;
      }
      default:
        return errorOf(m.id, -32603, `mcp-fw dev cannot serve ${m.method}: ${this.#down}`, { reloadError: this.#down });
    }
  }

  // ── child → client ──────────────────────────────────────────────────────────────────────

  #fromChild(at: Attachment, frame: string, o: number | undefined, final: boolean | undefined): void {
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
    const wait = route.final && token.lastMessageAt !== undefined ? ANSWER_GAP_MS - (performance.now() - token.lastMessageAt) : 0;
    if (!route.final) token.lastMessageAt = performance.now();
    if (wait <= 0) return this.#send(message, route);
    token.held = new Promise((resolve) => setTimeout(resolve, wait)).then(() => this.#send(message, route));
  }

  #mapFromChild(at: Attachment, m: Message, related: boolean): Message | undefined {
    if (typeof m.method !== 'string') return this.#answerFromChild(at, m);
    // A retired child still finishes its calls: only what relates to one of them gets through.
    if (this.#current !== at && !related) return undefined;
    if ('id' in m) return { ...m, id: this.#calls.addServerRequest({ at, childId: m.id }) };
    if (m.method === 'notifications/cancelled') {
      const id = this.#calls.findServerRequest(at.link, m.params?.requestId);
      if (id === undefined) return undefined;
      this.#calls.takeServerRequest(id);
      return { ...m, params: { ...m.params, requestId: id } };
    }
    const tag = m.params?._meta?.[SUBSCRIPTION_ID];
    if (tag === undefined) return m;
    const call = this.#calls.get(tag);
    if (!call || call.kind !== 'client' || call.at !== at) return undefined;
    if (call.replayed && m.method === 'notifications/subscriptions/acknowledged') return undefined;
    return { ...m, params: retag(m.params, call.clientId) };
  }

  #answerFromChild(at: Attachment, m: Message): Message | undefined {
    const call = this.#calls.get(m.id);
    if (!call || call.at !== at) return undefined;
    this.#calls.take(m.id);
    this.#checkIdle();
    const state = m.result?.resultType === 'input_required' ? m.result.requestState : undefined;
    if (typeof state === 'string') this.#states.set(state, at);
    this.#drain(at);
    if (call.kind === 'internal') {
      if (m.error) call.reject(new RpcError(m.error.code, m.error.message, m.error.data));
      else call.resolve(m.result);
      return undefined;
    }
    let result = m.result as Message | undefined;
    if (call.method === 'subscriptions/listen') {
      this.#state.listens.delete(idKey(call.clientId));
      if (result) result = retag(result, call.clientId);
    }
    if (result && (call.method === 'initialize' || call.method === 'server/discover')) result = widenCapabilities(result);
    return result ? { ...m, id: call.clientId, result } : { ...m, id: call.clientId };
  }

  #settled(o: number): void {
    const token = this.#tokens.get(o);
    this.#tokens.delete(o);
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
      this.#send(errorOf(call.clientId, -32603, message), token && { origin: token.origin, final: true });
    }
    for (const requestId of serverRequests) {
      this.#send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } });
    }
    for (const [o, token] of this.#tokens) if (token.at.link === link) this.#settled(o);
    for (const [state, at] of this.#states) if (at.link === link) this.#states.delete(state);
    for (const at of this.#previous) if (at.link === link) this.#previous.delete(at);
    this.#checkIdle();
  }

  /** The live connection that issued `requestState`, which the retry must go back to. */
  #ownerOf(state: unknown): Attachment | undefined {
    if (typeof state !== 'string') return undefined;
    const at = this.#states.get(state);
    this.#states.delete(state);
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
    if (!this.#previous.has(at) || this.#calls.busy(at)) return;
    for (const owner of this.#states.values()) if (owner === at) return;
    this.#previous.delete(at);
    at.link.close(at.s, 0);
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────

  #open(link: ChildLink): Attachment {
    const at: Attachment = { link, s: this.#env.nextConnection() };
    link.open(
      at.s,
      { out: (frame, o, final) => this.#fromChild(at, frame, o, final), settle: (o) => this.#settled(o), closed: () => {} },
      this.#mode,
      this.#channel.id,
    );
    void link.exited.then(() => this.#lost(link, link.exitReason));
    return at;
  }

  #moveListen(listen: ListenRecord, at: Attachment): void {
    // The new stream is registered before the old one is cancelled: the client's stream never
    // looks finished in between.
    const token = this.#token(listen.origin, at);
    const previous = listen.childId;
    const childId = this.#calls.add({ kind: 'client', clientId: listen.clientId, method: 'subscriptions/listen', at, token, replayed: true });
    if (previous !== undefined) this.#cancelOnChild(previous);
    listen.childId = childId;
    this.#forward(at, JSON.stringify({ jsonrpc: '2.0', id: childId, method: 'subscriptions/listen', params: listen.params }), token);
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
    this.#forward(call.at, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params }), this.#token(undefined, call.at, true));
  }

  #internal(at: Attachment, method: string, params: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.#calls.add({ kind: 'internal', at, resolve, reject });
      this.#forward(at, JSON.stringify({ jsonrpc: '2.0', id, method, params }), this.#token(undefined, at, true));
    });
  }

  #internalNotify(at: Attachment, method: string): void {
    this.#forward(at, JSON.stringify({ jsonrpc: '2.0', method }), this.#token(undefined, at, true));
  }

  #token(origin: unknown, at: Attachment, internal = false): number {
    const o = this.#nextToken++;
    this.#tokens.set(o, { origin, at, internal });
    return o;
  }

  #forward(at: Attachment, frame: string, o: number, peer?: { remoteAddress?: string }): void {
    const remoteAddress = peer?.remoteAddress;
    at.link.send({ t: 'in', s: at.s, f: frame, o, ...(remoteAddress ? { peer: { remoteAddress } } : {}) });
  }

  #answer(answers: Message[], batch: boolean, origin: unknown): void {
    this.#send(batch ? answers : answers[0], { origin, final: true });
    this.#settleClient(origin);
  }

  /** Tells the client transport that nothing more follows for `origin`, once that is true. */
  #settleClient(origin: unknown): void {
    for (const token of this.#tokens.values()) if (token.origin === origin && !token.internal) return;
    if (this.#state.holds(origin)) return;
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

  /** A log message to a legacy client, at or above the level it asked for (spec: logging). */
  #log(level: string, data: string): void {
    if (!this.#state.legacy || !this.#state.initialized) return;
    const threshold = LEVELS.indexOf(this.#state.logLevel ?? 'debug');
    if (LEVELS.indexOf(level) < threshold) return;
    this.#send({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'mcp-fw dev', data } });
  }
}

function errorOf(id: unknown, code: number, message: string, data?: unknown): Message {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function retag(params: Message, clientId: unknown): Message {
  return { ...params, _meta: { ...params._meta, [SUBSCRIPTION_ID]: clientId } };
}
