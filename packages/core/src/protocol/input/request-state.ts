import { hmacSha256 } from '#digest';
import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';
import { base64urlToText, textToBase64url, utf8 } from './base64url.js';
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
  #sign?: (body: string) => string;

  constructor(
    key: string | Uint8Array | undefined,
    readonly ttlMs: number,
  ) {
    if (key !== undefined) {
      const bytes = typeof key === 'string' ? utf8(key) : Uint8Array.from(key);
      if (bytes.length < 32) throw new Error('requestStateKey must be at least 32 bytes');
      this.#sign = hmacSha256(bytes);
    }
  }

  mint(state: Omit<RequestStatePayload, 'exp'>, now = Date.now()): string {
    const { run, round, bind, asked, answers, start } = state;
    const body = textToBase64url(
      JSON.stringify({ run, round, bind, asked, answers, start, exp: now + this.ttlMs }),
    );
    return `${body}.${this.#signer()(body)}`;
  }

  verify(state: unknown, now = Date.now()): RequestStatePayload {
    if (typeof state !== 'string') throw invalid('requestState must be a string');
    const dot = state.lastIndexOf('.');
    const body = state.slice(0, dot);
    // The signature as this server writes it (canonical base64url), compared as text.
    if (dot <= 0 || !sameText(state.slice(dot + 1), this.#signer()(body))) {
      throw invalid('requestState was not issued by this server or was altered');
    }
    const payload = JSON.parse(base64urlToText(body) ?? '') as RequestStatePayload;
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

  #signer(): (body: string) => string {
    // A random key per process when none is configured, made when the first state is.
    return (this.#sign ??= hmacSha256(randomKey()));
  }
}

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}

/** Compares two strings in time that depends on their length only, not on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** 32 random bytes from the platform's CSPRNG (Web Crypto, present on every target runtime). */
function randomKey(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}
