import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';
import { nodeCrypto } from './node-crypto.js';
import type { RoundBinding } from './round-binding.js';

/** What a 2026-07-28 `requestState` carries between rounds of one call. */
export interface RequestStatePayload {
  /** The run it belongs to, so a live handler in this process can be resumed. */
  readonly run: string;
  /** Which round of the run this state asks (1, 2, …); a round is answered once. */
  readonly round: number;
  /** The call the round was issued for (method, target, arguments, caller). */
  readonly bind: RoundBinding;
  /** The input keys this round asked: a retry may answer only these. */
  readonly asked: readonly string[];
  /** Every answer gathered in earlier rounds, by input key (answers accumulate across rounds). */
  readonly answers: Record<string, unknown>;
  /** When the call's first round began, in ms since the epoch (a timeout covers every round). */
  readonly start: number;
  /** Expiry, in ms since the epoch. */
  readonly exp: number;
}

/**
 * Signs and checks `requestState`. The client holds the state between rounds, so it is
 * HMAC-SHA256 signed (not encrypted) and expires; a tampered or expired state is refused with
 * -32602 before any handler runs. Instances that share the key can replay each other's calls.
 */
export class RequestStateCodec {
  #key?: Buffer;

  constructor(
    key: string | Uint8Array | undefined,
    readonly ttlMs: number,
  ) {
    if (key !== undefined) {
      this.#key = Buffer.from(key);
      if (this.#key.length < 32) throw new Error('requestStateKey must be at least 32 bytes');
    }
  }

  mint(state: Omit<RequestStatePayload, 'exp'>, now = Date.now()): string {
    const { run, round, bind, asked, answers, start } = state;
    const body = Buffer.from(
      JSON.stringify({ run, round, bind, asked, answers, start, exp: now + this.ttlMs }),
    ).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  verify(state: unknown, now = Date.now()): RequestStatePayload {
    if (typeof state !== 'string') throw invalid('requestState must be a string');
    const dot = state.lastIndexOf('.');
    const body = state.slice(0, dot);
    const signature = Buffer.from(state.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#sign(body), 'base64url');
    if (
      dot <= 0 ||
      signature.length !== expected.length ||
      !nodeCrypto().timingSafeEqual(signature, expected)
    ) {
      throw invalid('requestState was not issued by this server or was altered');
    }
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as RequestStatePayload;
    if (payload.exp < now) throw invalid('requestState has expired; start the call again');
    // Signed by this key but without a binding: issued by an older version sharing the key.
    if (
      typeof payload.round !== 'number' ||
      typeof payload.bind !== 'object' ||
      !Array.isArray(payload.asked)
    ) {
      throw invalid(
        'requestState was issued by an older version of this server; start the call again',
      );
    }
    return payload;
  }

  #sign(body: string): string {
    const crypto = nodeCrypto();
    // A random key per process when none is configured, made when the first state is.
    this.#key ??= crypto.randomBytes(32);
    return crypto.createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}
