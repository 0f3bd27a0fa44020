import { RawJson } from '../../../jsonrpc/index.js';
import type { ServerCore } from '../../server-core.js';
import { META } from './envelope.js';

/** Results a client may cache; each carries `ttlMs` and `cacheScope` (protocol.md §2.1). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/** The envelope's members as JSON text without the opening brace: `"resultType":…,"_meta":{…}}`. */
interface Tails {
  readonly plain: string;
  readonly cacheable: string;
}

// Per server, built once: the envelope is the same on every result, so it is serialised once
// and spliced in, instead of being rebuilt as objects and re-serialised on every call.
const tailsByCore = new WeakMap<ServerCore, Tails>();

function tailsOf(core: ServerCore): Tails {
  let tails = tailsByCore.get(core);
  if (!tails) {
    const _meta = {
      [META.serverInfo]: { name: core.identity.name, version: core.identity.version },
    };
    tails = {
      plain: JSON.stringify({ resultType: 'complete', _meta }).slice(1),
      cacheable: JSON.stringify({ resultType: 'complete', ...core.cacheHints, _meta }).slice(1),
    };
    tailsByCore.set(core, tails);
  }
  return tails;
}

function splice(json: string, tail: string): RawJson {
  return new RawJson(json === '{}' ? `{${tail}` : `${json.slice(0, -1)},${tail}`);
}

/**
 * The 2026-07-28 shape of a result: `resultType`, the server's identity in `_meta`, and cache
 * hints on the cacheable ones (the server's defaults unless the handler set its own).
 */
export function modernResult(result: unknown, method: string, core: ServerCore): unknown {
  const interim = (result as { resultType?: unknown } | undefined)?.resultType === 'input_required';
  // Interim input_required results are never cacheable (protocol.md §4.1).
  const cacheable = CACHEABLE.has(method) && !interim;
  if (result instanceof RawJson) {
    // Cached list pages are JSON text already.
    return splice(result.json, cacheable ? tailsOf(core).cacheable : tailsOf(core).plain);
  }
  const r = (result ?? {}) as Record<string, unknown>;
  if (
    r._meta === undefined &&
    r.resultType === undefined &&
    (!cacheable || (r.ttlMs === undefined && r.cacheScope === undefined))
  ) {
    // Nothing of the envelope's own: serialise the result alone and append the envelope's text.
    const json = JSON.stringify(r);
    if (json.charCodeAt(0) === 123 && json.charCodeAt(json.length - 1) === 125) {
      return splice(json, cacheable ? tailsOf(core).cacheable : tailsOf(core).plain);
    }
  }
  const hints = cacheable ? core.cacheHints : undefined;
  const meta: Record<string, unknown> = { ...(r._meta as Record<string, unknown> | undefined) };
  meta[META.serverInfo] = { name: core.identity.name, version: core.identity.version };
  // One spread, then plain writes: the same keys in the same order as
  // `{ resultType, ...hints, ...r, resultType: …, _meta }`, but V8 builds that form (two spreads
  // followed by properties) in its slow runtime path on Node 20.
  const out: Record<string, unknown> = hints
    ? { resultType: 'complete', ...hints, ...r }
    : { resultType: 'complete', ...r };
  out.resultType = r.resultType ?? 'complete';
  out._meta = meta;
  return out;
}
