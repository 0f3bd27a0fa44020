import { JsonRpcError } from '../../jsonrpc/index.js';
import { isThenable } from '../../registry/index.js';
import { ErrorCode } from '../error-codes.js';
import { LimitError, storeRefusal } from '../guards/limit-error.js';
import { defaultIdentify, principalOf, type Identify } from '../guards/identity.js';
import type { RequestRecord } from '../request-record.js';
import { inputRoundLimits, type InputRoundLimits } from './input-round-limits.js';
import { InputRun, isAnswer, type Origin } from './input-run.js';
import { RequestStateCodec, type RequestStatePayload } from './request-state.js';
import { bindingOf, checkBinding, type RoundBinding } from './round-binding.js';
import {
  MemoryUsedRounds,
  type AnsweredRoundCaps,
  type AnsweredRoundRefusal,
  type UsedRounds,
} from './used-rounds.js';

/** 2026-07-28 input rounds: how `requestState` is signed, and how long and how often a call may ask. */
export interface InputRoundSettings {
  /** Key for signing `requestState` (≥ 32 bytes); random per process when unset. */
  readonly requestStateKey?: string | Uint8Array;
  /** How long a round may take before its state and waiting handler expire (default 10 min). */
  readonly roundTimeoutMs?: number;
  /** Rounds of questions one call may take (default 8), across instances that replay it. */
  readonly maxRounds?: number;
  /** @deprecated Use `limits.inputRounds.maxWaiting`. */
  readonly maxParked?: number;
  /**
   * Where answered rounds are recorded, so none is answered twice (default: this process's
   * memory, bounded by `limits.inputRounds.maxAnswered`). Instances sharing `requestStateKey`
   * should share this too; see {@link UsedRounds}.
   */
  readonly usedRounds?: UsedRounds;
  /**
   * Keep a handler that asked for input waiting in memory, so the retry resumes it (default),
   * or (`false`) let it go once its round is answered with `input_required`, so every retry
   * replays the handler from the signed state with the answers so far. Default `false` on
   * Cloudflare Workers, which cancel a promise settled from another request than the one that
   * created it; `true` everywhere else.
   */
  readonly keepWaiting?: boolean;
}

// Workers name themselves in navigator.userAgent; there a waiting handler cannot be resumed by
// the retry's request (the runtime cancels cross-request continuations), so rounds replay.
function resumesAcrossRequests(): boolean {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return agent !== 'Cloudflare-Workers';
}

/** What the input runs take from `createServer({ limits })`. */
interface RunLimits {
  readonly inputRounds?: InputRoundLimits;
  readonly identify?: Identify;
}

interface Parked {
  readonly run: InputRun;
  readonly client: string;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The calls waiting for a client's input in this process, so that a retry can resume its
 * handler instead of replaying it. Bounded (in all and per client) and expiring: a round over a
 * cap is refused; a run that is gone is replayed from its signed state. A retry is checked
 * before anything runs: its state must be signed, unexpired, issued for this very call and
 * caller, not answered before, and answer only what its round asked.
 */
export class InputRuns {
  #codec: RequestStateCodec;
  /** The shared store's key, read at each use: a store may replace it (see {@link share}). */
  #sharedKey?: () => string;
  #codecKey?: string;

  /** Signs and checks `requestState`, with the shared store's current key once shared. */
  get codec(): RequestStateCodec {
    const key = this.#sharedKey?.();
    if (key !== undefined && key !== this.#codecKey) {
      this.#codec = new RequestStateCodec(key, this.#timeoutMs);
      this.#codecKey = key;
    }
    return this.#codec;
  }
  readonly maxRounds: number;
  readonly #parked = new Map<string, Parked>();
  readonly #perClient = new Map<string, number>();
  readonly #maxWaiting: number;
  readonly #maxPerClient: number;
  readonly #timeoutMs: number;
  #used: UsedRounds;
  readonly #maxAnswered: number;
  readonly #maxAnsweredPerClient: number;
  readonly #settings: InputRoundSettings;
  readonly #identify: Identify;
  readonly #keepWaiting: boolean;

  constructor(settings: InputRoundSettings = {}, limits: RunLimits = {}) {
    this.#timeoutMs = settings.roundTimeoutMs ?? 600_000;
    this.#codec = new RequestStateCodec(settings.requestStateKey, this.#timeoutMs);
    this.maxRounds = settings.maxRounds ?? 8;
    const caps = inputRoundLimits(limits.inputRounds, settings.maxParked);
    this.#maxWaiting = caps.maxWaiting;
    this.#maxPerClient = caps.maxWaitingPerClient;
    this.#used = settings.usedRounds ?? new MemoryUsedRounds(caps.maxAnswered);
    this.#maxAnswered = caps.maxAnswered;
    this.#maxAnsweredPerClient = caps.maxAnsweredPerClient;
    this.#settings = settings;
    this.#identify = limits.identify ?? defaultIdentify;
    this.#keepWaiting = settings.keepWaiting ?? resumesAcrossRequests();
  }

  /**
   * Shares answered rounds and the `requestState` key with the other instances of this server,
   * so a round resumes (replays) on any of them and stays single-use across all; a key or store
   * given in the server's own `input` options is kept.
   */
  share(usedRounds: UsedRounds, requestStateKey: string | (() => string)): void {
    if (this.#settings.usedRounds === undefined)
      this.#used = {
        // A store that cannot be reached refuses the retry as a full server does (503 with
        // Retry-After over HTTP), never as an internal error; the client retries shortly.
        markUsed: (id, expiresAt, caps) =>
          Promise.resolve(usedRounds.markUsed(id, expiresAt, caps)).catch((error: unknown) => {
            const { message, retryAfterMs } = storeRefusal('inputRounds', error);
            throw new JsonRpcError(ErrorCode.LimitReached, message, {
              limit: 'inputRounds',
              status: 503,
              retryAfterS: Math.ceil((retryAfterMs ?? 1000) / 1000),
            });
          }),
      };
    // Read at each use: a store that finds its key replaced (Redis lost its data while an
    // instance restarted) hands out the new one, so instances never stay split.
    if (this.#settings.requestStateKey === undefined)
      this.#sharedKey =
        typeof requestStateKey === 'string' ? () => requestStateKey : requestStateKey;
  }

  /**
   * Runs a call that may ask the client for input: through an input run when the request's era
   * asks in rounds; directly otherwise, where questions are real requests on the live channel.
   * `origin` names the client when nothing else does (its session), read only if a round waits.
   */
  call(
    params: Record<string, unknown> | undefined,
    record: RequestRecord,
    execute: (run?: InputRun) => unknown,
    origin?: Origin,
  ): unknown {
    return record.era.asksInRounds ? this.serve(params, record, execute, origin) : execute();
  }

  /**
   * Serves one modern call that may ask for input: a first round starts a run; a retry resumes
   * the live run its state names, or replays the handler with the answers gathered so far.
   */
  serve(
    params: Record<string, unknown> | undefined,
    record: RequestRecord,
    execute: (run: InputRun) => unknown,
    origin?: Origin,
  ): unknown {
    const state = params?.requestState;
    if (state === undefined) {
      // Answers without a requestState: nothing proves their question reached the user (every
      // round this server asks carries a state), so they are ignored (SEP-2322: not an error)
      // unless the handler asks with `acceptUnasked`, and then only in the first round. Used
      // otherwise, they would let a client pre-answer a confirmation nobody was shown.
      const offered = offeredAnswers(params?.inputResponses);
      const run = new InputRun(
        undefined,
        record,
        offered ? { offered, replay: false } : FRESH,
        this,
        origin,
      );
      return run.start(execute);
    }
    const payload = this.codec.verify(state);
    checkBinding(payload.bind, this.binding(record));
    const responses = responsesOf(params);
    checkAsked(payload, responses);
    const caps: AnsweredRoundCaps = {
      client: this.#clientOf(record, origin?.sessionId),
      maxAnswered: this.#maxAnswered,
      maxAnsweredPerClient: this.#maxAnsweredPerClient,
    };
    const fresh = this.#used.markUsed(`${payload.run}.${payload.round}`, payload.exp, caps);
    return isThenable(fresh)
      ? Promise.resolve(fresh).then((first) =>
          this.#retry(first, payload, responses, record, execute, origin),
        )
      : this.#retry(fresh, payload, responses, record, execute, origin);
  }

  /** The call `record` makes, as a round's state binds it. */
  binding(record: RequestRecord): RoundBinding {
    const { method, params } = record.request;
    return bindingOf(method, params, principalOf(this.#identify, record.auth));
  }

  /**
   * Keeps `run` waiting for the client's retry, or refuses the round with the limit it would
   * exceed (then nothing is kept).
   */
  park(run: InputRun, origin: Origin | undefined): LimitError | undefined {
    this.#unpark(run.id);
    // Not kept: the retry finds no live run and replays the handler from the signed state.
    if (!this.#keepWaiting) return undefined;
    const client = this.#clientOf(run.record, origin?.sessionId);
    const waiting = this.#perClient.get(client) ?? 0;
    if (waiting >= this.#maxPerClient) {
      return new LimitError(
        'inputRounds',
        `This client already has ${waiting} calls waiting for its input (limits.inputRounds.maxWaitingPerClient); answer or abandon one first.`,
      );
    }
    if (this.#parked.size >= this.#maxWaiting) {
      return new LimitError(
        'inputRounds',
        `This server has ${this.#parked.size} calls waiting for input (limits.inputRounds.maxWaiting); try again shortly.`,
      );
    }
    const timer = setTimeout(() => {
      run.expire();
      this.#unpark(run.id);
    }, this.#timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    this.#parked.set(run.id, { run, client, timer });
    this.#perClient.set(client, waiting + 1);
    return undefined;
  }

  release(run: InputRun): void {
    if (this.#parked.get(run.id)?.run === run) this.#unpark(run.id);
  }

  get parkedCount(): number {
    return this.#parked.size;
  }

  #retry(
    first: boolean | AnsweredRoundRefusal,
    payload: RequestStatePayload,
    responses: Record<string, unknown>,
    record: RequestRecord,
    execute: (run: InputRun) => unknown,
    origin: Origin | undefined,
  ): unknown {
    if (typeof first === 'object') throw answeredRoundsFull(first, this.#caps());
    if (!first) {
      throw invalid(
        `round ${payload.round} of this call was already answered; each requestState is answered once (start the call again for a new one)`,
      );
    }
    const parked = this.#parked.get(payload.run);
    if (parked) {
      this.#unpark(payload.run);
      return parked.run.resume(record, responses);
    }
    const answers = { ...payload.answers, ...answersIn(responses) };
    const run = new InputRun(
      payload.run,
      record,
      { answers, start: payload.start, round: payload.round, bind: payload.bind, replay: true },
      this,
      origin,
    );
    return run.start(execute);
  }

  #caps(): { maxAnswered: number; maxAnsweredPerClient: number } {
    return { maxAnswered: this.#maxAnswered, maxAnsweredPerClient: this.#maxAnsweredPerClient };
  }

  #clientOf(record: RequestRecord, session: string | undefined): string {
    const identity = this.#identify(record.auth);
    if (identity !== undefined) return `identity:${identity}`;
    const address = record.request.remoteAddress;
    if (address !== undefined) return `address:${address}`;
    return session === undefined ? 'local' : `session:${session}`;
  }

  #unpark(id: string): void {
    const entry = this.#parked.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#parked.delete(id);
    const left = (this.#perClient.get(entry.client) ?? 1) - 1;
    if (left > 0) this.#perClient.set(entry.client, left);
    else this.#perClient.delete(entry.client);
  }
}

const FRESH = Object.freeze({ replay: false });

/**
 * A retry whose round the record of answered rounds would not keep: -32000 naming the cap, over
 * HTTP 429 (the client's own share) or 503 (the server's), with `Retry-After` until one of the
 * rounds it counts expires — as every refusal at a cap on client-made state.
 */
function answeredRoundsFull(
  refusal: AnsweredRoundRefusal,
  caps: { maxAnswered: number; maxAnsweredPerClient: number },
): JsonRpcError {
  const retryAfterS = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  const message =
    refusal.limit === 'maxAnsweredPerClient'
      ? `Too many answered input rounds: this client has ${caps.maxAnsweredPerClient} remembered (limits.inputRounds.maxAnsweredPerClient), each kept until its state expires; retry in ${retryAfterS} s, or raise limits.inputRounds.maxAnsweredPerClient`
      : `Too many answered input rounds: the server remembers ${caps.maxAnswered} (limits.inputRounds.maxAnswered), each kept until its state expires; retry in ${retryAfterS} s, or raise limits.inputRounds.maxAnswered`;
  return new JsonRpcError(ErrorCode.LimitReached, message, {
    limit: `inputRounds.${refusal.limit}`,
    status: refusal.limit === 'maxAnsweredPerClient' ? 429 : 503,
    retryAfterS,
  });
}

/** The round's `inputResponses` (none is `{}`); anything but an object is -32602. */
function responsesOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const responses = params?.inputResponses ?? {};
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      'Invalid params: inputResponses must be an object keyed by input request',
    );
  }
  return responses as Record<string, unknown>;
}

/** The answers of `inputResponses` sent without a state, when it is an object holding any. */
function offeredAnswers(responses: unknown): Record<string, unknown> | undefined {
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
    return undefined;
  const answers = answersIn(responses as Record<string, unknown>);
  return Object.keys(answers).length > 0 ? answers : undefined;
}

/** Refuses (-32602) an answer to a question the round did not ask. */
function checkAsked(payload: RequestStatePayload, responses: Record<string, unknown>): void {
  for (const key of Object.keys(responses)) {
    if (!payload.asked.includes(key)) {
      const asked = payload.asked.map(quote).join(', ');
      throw invalid(
        `inputResponses answers ${quote(key)}, which this round did not ask (it asked ${asked || 'nothing'})`,
      );
    }
  }
}

// A key is the client's text: quoted, and cut short so a long one cannot swell the message.
function quote(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 63)}…` : key);
}

/** The entries that are answers; the rest count as missing and are asked for again. */
function answersIn(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).filter(([, value]) => isAnswer(value)));
}

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}

// A service of the server core, added to `ServerCore` from here: it is built on the era contract,
// which therefore cannot name it without an import cycle.
declare module '../server-core.js' {
  interface ServerCore {
    /** 2026-07-28 calls waiting for the client's input (multi round-trip requests). */
    readonly inputs: InputRuns;
  }
}
