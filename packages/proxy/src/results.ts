import { UserError } from '@mcp-fw/core';
import { ENVELOPE_META } from '@mcp-fw/core/transport';

// What an upstream answers is checked before it is passed on: the downstream client trusts the
// proxy, so a malformed result becomes an error naming the upstream, not a confusing failure in
// the client (or a crash).

type Check = (value: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const content: Check = (block) =>
  !isObject(block) || typeof block.type !== 'string'
    ? 'a content block without a "type"'
    : undefined;

function each(list: unknown, name: string, check: Check): string | undefined {
  if (!Array.isArray(list)) return `"${name}" is not an array`;
  // Indexed: every forwarded result comes through here (no iterator per call).
  for (let i = 0; i < list.length; i++) {
    const problem = check(list[i]);
    if (problem) return `${name}[${i}]: ${problem}`;
  }
  return undefined;
}

const CHECKS: Record<string, Check> = {
  'tools/call': (r) =>
    !isObject(r)
      ? 'not an object'
      : (each(r.content, 'content', content) ??
        (r.structuredContent !== undefined && !isObject(r.structuredContent)
          ? '"structuredContent" is not an object'
          : r.isError !== undefined && typeof r.isError !== 'boolean'
            ? '"isError" is not a boolean'
            : undefined)),
  'resources/read': (r) =>
    !isObject(r)
      ? 'not an object'
      : each(r.contents, 'contents', (c) =>
          !isObject(c) || typeof c.uri !== 'string'
            ? 'contents without a "uri"'
            : typeof c.text !== 'string' && typeof c.blob !== 'string'
              ? 'contents with neither "text" nor "blob"'
              : undefined,
        ),
  'prompts/get': (r) =>
    !isObject(r)
      ? 'not an object'
      : each(r.messages, 'messages', (m) =>
          !isObject(m) || (m.role !== 'user' && m.role !== 'assistant')
            ? 'a message whose "role" is neither "user" nor "assistant"'
            : content(m.content),
        ),
  'completion/complete': (r) =>
    !isObject(r) || !isObject(r.completion)
      ? 'no "completion" object'
      : each(r.completion.values, 'completion.values', (v) =>
          typeof v === 'string' ? undefined : 'not a string',
        ),
};

/** Returns `result` when it has the shape `method` asks for; else throws naming the upstream. */
export function checked<T>(upstream: string, method: string, what: string, result: T): T {
  const problem = CHECKS[method]?.(result);
  if (problem)
    throw new UserError(
      `Upstream "${upstream}" answered ${what} with an invalid result (${problem}); the proxy did not pass it on`,
    );
  return result;
}

/**
 * The upstream's answer without the upstream era's envelope: a 2026-07-28 upstream's
 * `resultType` and its `serverInfo` in `_meta` describe the proxy's connection, not the caller's
 * (a 2024-11-05 caller must not see them; a 2026-07-28 caller gets the proxy's own). The rest of
 * `_meta` is the member's and passes.
 */
export function withoutEnvelope<T>(result: T): T {
  if (typeof result !== 'object' || result === null) return result;
  const r = result as Record<string, unknown>;
  const meta = r._meta as Record<string, unknown> | undefined;
  const hasInfo = typeof meta === 'object' && meta !== null && ENVELOPE_META.serverInfo in meta;
  if (!('resultType' in r) && !hasInfo) return result;
  const { resultType: _type, _meta, ...rest } = r;
  if (!hasInfo) return (_meta === undefined ? rest : { ...rest, _meta }) as T;
  const { [ENVELOPE_META.serverInfo]: _info, ...ownMeta } = meta as Record<string, unknown>;
  return (Object.keys(ownMeta).length > 0 ? { ...rest, _meta: ownMeta } : rest) as T;
}
