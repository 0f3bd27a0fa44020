import { RawJson } from '../../jsonrpc/index.js';
import type { ServerCore } from '../server-core.js';
import { META } from './envelope.js';

/** Results a client may cache; each carries `ttlMs` and `cacheScope` (protocol.md §2.1). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * The 2026-07-28 shape of a result: `resultType`, the server's identity in `_meta`, and cache
 * hints on the cacheable ones (the server's defaults unless the handler set its own).
 */
export function modernResult(result: unknown, method: string, core: ServerCore): unknown {
  const interim = (result as { resultType?: unknown } | undefined)?.resultType === 'input_required';
  // Interim input_required results are never cacheable (protocol.md §4.1).
  const hints = CACHEABLE.has(method) && !interim ? core.cacheHints : undefined;
  const serverInfo = { name: core.identity.name, version: core.identity.version };
  if (result instanceof RawJson) {
    // Cached list pages are JSON text; splice the envelope in rather than re-serialising.
    const tail = JSON.stringify({ resultType: 'complete', ...hints, _meta: { [META.serverInfo]: serverInfo } }).slice(1);
    return new RawJson(result.json === '{}' ? `{${tail}` : `${result.json.slice(0, -1)},${tail}`);
  }
  const r = (result ?? {}) as Record<string, unknown>;
  const meta: Record<string, unknown> = { ...(r._meta as Record<string, unknown> | undefined) };
  meta[META.serverInfo] = serverInfo;
  // One spread, then plain writes: the same keys in the same order as
  // `{ resultType, ...hints, ...r, resultType: …, _meta }`, but V8 builds that form (two spreads
  // followed by properties) in its slow runtime path, ~1.4 µs per result on Node 20.
  const out: Record<string, unknown> = hints ? { resultType: 'complete', ...hints, ...r } : { resultType: 'complete', ...r };
  out.resultType = r.resultType ?? 'complete';
  out._meta = meta;
  return out;
}
