import { StartupError } from './errors.js';
import type { Members } from './scan.js';

/**
 * Which members a filter picks: by served name (a tool's or prompt's name, a resource's URI or a
 * template's URI template), by tag (`_meta.tags`, a string array) or by version (`_meta.version`).
 * Members are read from `_meta` because that is what crosses the wire: a proxied member's tags
 * and version arrive there, so one filter works on local, mounted and proxied members alike.
 *
 * @example
 * ```ts
 * const admin: MemberSelector = { tags: ['admin'] };
 * const v2: MemberSelector = { names: [/^billing_/], versions: ['2'] };
 * ```
 */
export interface MemberSelector {
  readonly names?: readonly (string | RegExp)[];
  readonly tags?: readonly string[];
  readonly versions?: readonly string[];
}

/**
 * What a server serves of its own and mounted members: those `include` picks (all when unset),
 * without those `exclude` picks. A selector matches a member when any of its lists does.
 *
 * @example
 * ```ts
 * server.filter({ exclude: { tags: ['admin'] } });
 * server.filter({ include: { names: [/^weather_/] } });
 * ```
 */
export interface MemberFilter {
  readonly include?: MemberSelector;
  readonly exclude?: MemberSelector;
}

interface Filterable {
  readonly name: string;
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly _meta?: Record<string, unknown>;
}

/** Checks a filter when it is given, so a typo fails at startup rather than hiding everything. */
export function checkFilter(filter: MemberFilter): void {
  const fail = (why: string) => {
    throw new StartupError(
      'INVALID_TRANSFORM',
      `server.filter: ${why}. Fix: server.filter({ exclude: { tags: ['admin'] } }) — include and exclude each take names, tags and versions arrays.`,
    );
  };
  if (typeof filter !== 'object' || filter === null) fail('the filter must be an object');
  for (const key of Object.keys(filter))
    if (key !== 'include' && key !== 'exclude') fail(`unknown key "${key}"`);
  for (const selector of [filter.include, filter.exclude]) {
    if (selector === undefined) continue;
    for (const key of Object.keys(selector)) {
      if (key !== 'names' && key !== 'tags' && key !== 'versions')
        fail(`unknown selector key "${key}"`);
      if (!Array.isArray((selector as Record<string, unknown>)[key]))
        fail(`${key} must be an array`);
    }
  }
}

function matches(selector: MemberSelector, member: Filterable): boolean {
  const key = member.uri ?? member.uriTemplate ?? member.name;
  if (selector.names?.some((n) => (typeof n === 'string' ? n === key : n.test(key)))) return true;
  const tags = member._meta?.tags;
  if (Array.isArray(tags) && selector.tags?.some((t) => tags.includes(t))) return true;
  const version = member._meta?.version;
  return version !== undefined && (selector.versions?.includes(String(version)) ?? false);
}

/** The members `filter` keeps. */
export function filtered(members: Members, filter: MemberFilter): Members {
  const keep = (m: Filterable) =>
    (filter.include === undefined || matches(filter.include, m)) &&
    (filter.exclude === undefined || !matches(filter.exclude, m));
  return {
    tools: members.tools.filter(keep),
    prompts: members.prompts.filter(keep),
    resources: members.resources.filter(keep),
    templates: members.templates.filter(keep),
  };
}
