import { sha256Base64url } from '#digest';
import { JsonRpcError } from '../../jsonrpc/index.js';
import { ErrorCode } from '../error-codes.js';

/**
 * What one input round was issued for, signed into its `requestState`: a retry must be the same
 * call (method, tool/prompt/resource, arguments) by the same caller, or the state is refused.
 * Without this, the state of one call could answer another (another tool, other arguments,
 * another user's call).
 */
export interface RoundBinding {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** The tool's or prompt's name, or the resource's URI. */
  readonly target: string;
  /** SHA-256 (base64url) of the arguments as canonical JSON (object keys sorted). */
  readonly args: string;
  /**
   * SHA-256 (base64url) of the caller's principal (`limits.identify` of `ctx.auth`, else the
   * whole of it), when the request was authenticated: the state is readable by the client, so
   * it carries no identity in clear.
   */
  readonly principal?: string;
}

/** The binding of the call `params` make, computed only when a round is issued or answered. */
export function bindingOf(
  method: string,
  params: Record<string, unknown> | undefined,
  principal: string | undefined,
): RoundBinding {
  const resource = method === 'resources/read';
  const target = resource ? params?.uri : params?.name;
  return {
    method,
    target: typeof target === 'string' ? target : '',
    // No arguments and `{}` are the same call (a client may send either in either round).
    args: resource ? '' : digest(params?.arguments ?? {}),
    ...(principal === undefined ? {} : { principal: sha256Base64url(principal) }),
  };
}

/** Refuses (-32602) a retry whose call is not the one its `requestState` was issued for. */
export function checkBinding(issued: RoundBinding, retry: RoundBinding): void {
  if (issued.method !== retry.method || issued.target !== retry.target) {
    throw invalid(
      `requestState was issued for ${describe(issued)}, not ${describe(retry)}; a retry repeats the original call, or starts a new call without requestState`,
    );
  }
  if (issued.args !== retry.args) {
    throw invalid(
      `requestState was issued for ${describe(issued)} with other arguments; a retry must repeat the original arguments`,
    );
  }
  if (issued.principal !== retry.principal) {
    throw invalid(
      `requestState was issued to another caller; only the caller it was issued to can answer its round`,
    );
  }
}

function describe(binding: RoundBinding): string {
  const kind =
    binding.method === 'tools/call'
      ? 'tool'
      : binding.method === 'prompts/get'
        ? 'prompt'
        : 'resource';
  return `${binding.method} of ${kind} ${JSON.stringify(binding.target)}`;
}

function digest(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args, sortKeys) ?? 'null';
  } catch {
    // Nested deeper than the stack (a hostile argument): the client's fault, not the server's.
    throw invalid('arguments are nested too deeply');
  }
  return sha256Base64url(text);
}

// Canonical JSON: the same arguments with their keys in another order are the same call.
function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  // No prototype: a `__proto__` key is an ordinary key here, as it is in the JSON.
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort())
    sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

function invalid(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
}
