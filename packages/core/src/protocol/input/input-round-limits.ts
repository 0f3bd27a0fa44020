import { StartupError } from '../../registry/index.js';
import { DEFAULT_MAX_ANSWERED_PER_CLIENT, DEFAULT_MAX_ANSWERED_ROUNDS } from './used-rounds.js';

/**
 * Bounds on what 2026-07-28 input rounds (`ctx.elicit`, `ctx.sample`, `ctx.roots`) hold in this
 * process (`createServer({ limits: { inputRounds } })`). A call that asks for input waits in
 * memory for the client's retry until the round expires (`inputRounds.roundTimeoutMs`, default 10
 * min) or the call's deadline passes (`timeoutMs`, default 5 min). A round over a cap is refused: the handler's question fails with an error naming the
 * limit, so a tool answers an `isError` result and a prompt or resource read a JSON-RPC error.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Tools], limits: { inputRounds: { maxWaiting: 200, maxWaitingPerClient: 4 } } });
 * ```
 */
export interface InputRoundLimits {
  /** Calls waiting for a client's input in this process, all clients together (default 1000). */
  readonly maxWaiting?: number;
  /**
   * Calls waiting for one client's input (default 64). The client is its identity
   * (`limits.identify` of `ctx.auth`), else its network address, else its session. Behind a
   * reverse proxy, unauthenticated clients all have the proxy's address and share this cap.
   */
  readonly maxWaitingPerClient?: number;
  /**
   * Answered rounds remembered so that none is answered twice (default 100,000), all clients
   * together; each is kept until its state expires. A shared store (`@mcp-fw/redis`) keeps to
   * it too; at it, a retry is refused until one expires.
   */
  readonly maxAnswered?: number;
  /**
   * Answered rounds remembered for one client (default 1,000), in memory and in a shared store:
   * at it, the client's next retry is refused (-32000 naming this limit, over HTTP 429 with
   * `Retry-After`) until one of its rounds expires. The client is counted as for
   * `maxWaitingPerClient`.
   */
  readonly maxAnsweredPerClient?: number;
}

export const DEFAULT_MAX_WAITING = 1000;
export const DEFAULT_MAX_WAITING_PER_CLIENT = 64;

/** The limits with defaults filled in; a bad value fails at startup. */
export function inputRoundLimits(
  limits: InputRoundLimits | undefined,
  maxParked: number | undefined,
): Required<InputRoundLimits> {
  const checked = {
    // `inputRounds.maxParked` is the older name of `maxWaiting`.
    maxWaiting: limits?.maxWaiting ?? maxParked ?? DEFAULT_MAX_WAITING,
    maxWaitingPerClient: limits?.maxWaitingPerClient ?? DEFAULT_MAX_WAITING_PER_CLIENT,
    maxAnswered: limits?.maxAnswered ?? DEFAULT_MAX_ANSWERED_ROUNDS,
    maxAnsweredPerClient: limits?.maxAnsweredPerClient ?? DEFAULT_MAX_ANSWERED_PER_CLIENT,
  };
  for (const [field, value] of Object.entries(checked)) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new StartupError(
        'INVALID_LIMIT',
        `limits: inputRounds.${field} must be an integer ≥ 1, got ${JSON.stringify(value)}.`,
      );
    }
  }
  return checked;
}
