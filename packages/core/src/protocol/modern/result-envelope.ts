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
  const extra: Record<string, unknown> = { resultType: 'complete' };
  const interim = (result as { resultType?: unknown } | undefined)?.resultType === 'input_required';
  // Interim input_required results are never cacheable (protocol.md §4.1).
  if (CACHEABLE.has(method) && !interim) Object.assign(extra, core.cacheHints);
  const serverInfo = { [META.serverInfo]: { name: core.identity.name, version: core.identity.version } };
  if (result instanceof RawJson) {
    // Cached list pages are JSON text; splice the envelope in rather than re-serialising.
    const tail = JSON.stringify({ ...extra, _meta: serverInfo }).slice(1);
    return new RawJson(result.json === '{}' ? `{${tail}` : `${result.json.slice(0, -1)},${tail}`);
  }
  const r = (result ?? {}) as Record<string, unknown>;
  const meta = { ...(r._meta as Record<string, unknown> | undefined), ...serverInfo };
  return { ...extra, ...r, resultType: r.resultType ?? 'complete', _meta: meta };
}
