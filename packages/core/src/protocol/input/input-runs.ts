import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';
import type { RequestRecord } from '../request-record.js';
import { InputRun, isAnswer } from './input-run.js';
import { RequestStateCodec } from './request-state.js';

export interface InputSettings {
  /** Key for signing `requestState` (≥ 32 bytes); random per process when unset. */
  readonly requestStateKey?: string | Uint8Array;
  /** How long a round may take before its state and parked handler expire (default 10 min). */
  readonly roundTimeoutMs?: number;
  /** Rounds of questions one call may take (default 8). */
  readonly maxRounds?: number;
  /** Handlers kept waiting in this process at most (older ones fall back to replay). */
  readonly maxParked?: number;
}

/**
 * The calls waiting for a client's input in this process, so that a retry can resume its
 * handler instead of replaying it. Bounded and expiring: a run that is gone is replayed.
 */
export class InputRuns {
  readonly codec: RequestStateCodec;
  readonly maxRounds: number;
  readonly #parked = new Map<string, { run: InputRun; timer: ReturnType<typeof setTimeout> }>();
  readonly #maxParked: number;
  readonly #timeoutMs: number;

  constructor(settings: InputSettings = {}) {
    this.#timeoutMs = settings.roundTimeoutMs ?? 600_000;
    this.codec = new RequestStateCodec(settings.requestStateKey, this.#timeoutMs);
    this.maxRounds = settings.maxRounds ?? 8;
    this.#maxParked = settings.maxParked ?? 1000;
  }

  /**
   * Runs a call that may ask the client for input: through an input run under 2026-07-28;
   * directly in the legacy era, where questions are real requests on the live channel.
   */
  call(params: Record<string, unknown> | undefined, record: RequestRecord, execute: (run?: InputRun) => unknown): unknown {
    return record.era === 'modern' ? this.serve(params, record, execute) : execute();
  }

  /**
   * Serves one modern call that may ask for input: a first round starts a run; a retry resumes
   * the live run its state names, or replays the handler with the answers gathered so far.
   */
  serve(params: Record<string, unknown> | undefined, record: RequestRecord, execute: (run: InputRun) => unknown): unknown {
    const state = params?.requestState;
    if (state === undefined) {
      // Answers without a requestState count too (a server may send no state, so a client can
      // answer without one): the handler runs once with them, asking only for what is missing.
      const answers = params?.inputResponses === undefined ? undefined : answersIn(responsesOf(params));
      const run = new InputRun(undefined, record, answers ? { answers, replay: false } : FRESH, this);
      return run.start(execute);
    }
    const payload = this.codec.verify(state);
    const responses = responsesOf(params);
    const parked = this.#parked.get(payload.run);
    if (parked) {
      this.#unpark(payload.run);
      return parked.run.resume(record, responses);
    }
    const answers = { ...payload.answers, ...answersIn(responses) };
    const start = typeof payload.start === 'number' ? payload.start : Date.now();
    const run = new InputRun(payload.run, record, { answers, start, replay: true }, this);
    return run.start(execute);
  }

  park(run: InputRun): void {
    this.#unpark(run.id);
    if (this.#parked.size >= this.#maxParked) {
      const [oldest] = this.#parked.keys();
      this.#parked.get(oldest)!.run.expire();
      this.#unpark(oldest);
    }
    const timer = setTimeout(() => {
      run.expire();
      this.#unpark(run.id);
    }, this.#timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    this.#parked.set(run.id, { run, timer });
  }

  release(run: InputRun): void {
    if (this.#parked.get(run.id)?.run === run) this.#unpark(run.id);
  }

  get parkedCount(): number {
    return this.#parked.size;
  }

  #unpark(id: string): void {
    const entry = this.#parked.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#parked.delete(id);
  }
}

const FRESH = Object.freeze({ replay: false });

/** The round's `inputResponses` (none is `{}`); anything but an object is -32602. */
function responsesOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const responses = params?.inputResponses ?? {};
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object keyed by input request');
  }
  return responses as Record<string, unknown>;
}

/** The entries that are answers; the rest count as missing and are asked for again. */
function answersIn(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).filter(([, value]) => isAnswer(value)));
}
