import { createRequire } from 'node:module';
import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';

/** What a 2026-07-28 `requestState` carries between rounds of one call. */
export interface RequestStatePayload {
  /** The run it belongs to, so a live handler in this process can be resumed. */
  readonly run: string;
  /** Every answer gathered so far, by input key (answers accumulate across rounds). */
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

  mint(state: { run: string; answers: Record<string, unknown>; start: number }, now = Date.now()): string {
    const { run, answers, start } = state;
    const body = Buffer.from(JSON.stringify({ run, answers, start, exp: now + this.ttlMs })).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  verify(state: unknown, now = Date.now()): RequestStatePayload {
    if (typeof state !== 'string') throw invalid('requestState must be a string');
    const dot = state.lastIndexOf('.');
    const body = state.slice(0, dot);
    const signature = Buffer.from(state.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#sign(body), 'base64url');
    if (dot <= 0 || signature.length !== expected.length || !nodeCrypto().timingSafeEqual(signature, expected)) {
      throw invalid('requestState was not issued by this server or was altered');
    }
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as RequestStatePayload;
    if (payload.exp < now) throw invalid('requestState has expired; start the call again');
    return payload;
  }

  #sign(body: string): string {
    const crypto = nodeCrypto();
    // A random key per process when none is configured, made when the first state is.
    this.#key ??= crypto.randomBytes(32);
    return crypto.createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

// node:crypto is loaded when the first state is signed or checked, not at start-up: most servers
// never ask for input, and the module costs start-up time and resident memory.
let loaded: typeof import('node:crypto') | undefined;
function nodeCrypto(): typeof import('node:crypto') {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));
}

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}
