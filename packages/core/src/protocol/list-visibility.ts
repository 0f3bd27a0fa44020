import type { RawJson } from '../jsonrpc/index.js';
import { featuresOf, type RevisionFeatures } from './eras/revisions.js';
import type { ListCache } from './list-cache.js';
import type { ChangedMember } from './list-changed.js';
import type { RequestRecord } from './request-record.js';
import type { ServerCore } from './server-core.js';

type Kind = 'tool' | 'prompt' | 'resource' | 'template';

/**
 * The filter a list applies for this caller (`ServerOptions.listed`), or undefined when every
 * member is listed.
 */
export function shownTo<T extends { readonly scopes: readonly string[] }>(
  core: ServerCore,
  auth: unknown,
  kind: Kind,
  nameOf: (item: T) => string,
): ((item: T) => boolean) | undefined {
  const listed = core.listed;
  if (!listed) return undefined;
  return (item) => listed(auth, { kind, name: nameOf(item), scopes: item.scopes });
}

/**
 * Whether a change of a list concerns the caller `auth`: its lists show at least one of the
 * members that came or went (the same `ServerOptions.listed` filter the lists apply), so a
 * token that cannot see a scoped member is not told it was added, hidden or removed. A change
 * that names no members (`changes` undefined) concerns everyone; a filter that throws hides.
 */
export function seesChange(
  core: ServerCore,
  auth: unknown,
  changes: readonly ChangedMember[] | undefined,
): boolean {
  const listed = core.listed;
  if (!listed || changes === undefined) return true;
  return changes.some((member) => {
    try {
      return listed(auth, member);
    } catch {
      return false;
    }
  });
}

/**
 * One page of a list as `record`'s caller sees it: cached per list, revision, cursor and page
 * size ({@link ListCache}), each item in its revision's shape, what the caller may not see left
 * out (`listed`, and what the method hides from this caller). Every `…/list` method is this
 * with its own items and shape.
 */
export function visiblePage<T extends { readonly scopes: readonly string[] }>(
  list: { name: string; kind: Kind; nameOf: (item: T) => string },
  items: () => readonly T[],
  project: (item: T, features: RevisionFeatures) => unknown,
  params: Record<string, unknown> | undefined,
  record: RequestRecord,
  core: ServerCore,
  hidden?: (item: T) => boolean,
): RawJson {
  const features = featuresOf(record.protocolVersion);
  const key = {
    list: list.name,
    revision: record.protocolVersion,
    cursor: params?.cursor,
    pageSize: core.pageSize,
  };
  const shown = shownTo(core, record.auth, list.kind, list.nameOf);
  const filter =
    hidden && shown
      ? (item: T) => !hidden(item) && shown(item)
      : hidden
        ? (item: T) => !hidden(item)
        : shown;
  return core.lists.get(core.registry, key, items, (item) => project(item, features), filter);
}
