import { namespaced } from './namespaced.js';
import type { Members } from './scan.js';

/** Where a server's members are mounted: under which namespace, joined with which separator. */
export interface MountPoint {
  readonly namespace: string;
  readonly separator: string;
}

/**
 * The members of a mounted server as its parent serves them: tools and prompts renamed by
 * {@link namespaced}, resources and templates under their own URIs (a URI is an address other
 * content points at — resource links in tool results, subscriptions, `resources/updated` —
 * so rewriting it would break those; a clash is a startup error instead). `middleware` (the
 * child's server middleware) goes around each member, outside its own `@Use`, as it did in the
 * child. Everything else — handler, schemas, scopes, limits, task mode — is the child's.
 */
export function mountedMembers(
  served: Members,
  at: MountPoint,
  middleware: readonly unknown[],
): Members {
  const origin = (o: string) => `${o} (mounted as "${at.namespace}")`;
  const around = (own: readonly unknown[]) =>
    middleware.length === 0 ? own : Object.freeze([...middleware, ...own]);
  const key = `${at.namespace}\0${at.separator}`;
  // Each change of the child rebuilds the parent's tables: members that did not change keep
  // their mounted copy (and with it the middleware chains and list pages built from it).
  const copy = <
    T extends {
      readonly name: string;
      readonly origin: string;
      readonly middleware: readonly unknown[];
    },
  >(
    member: T,
    renamed: boolean,
  ): T => {
    const byMount = cache(member, middleware);
    let mounted = byMount.get(key) as T | undefined;
    if (!mounted) {
      mounted = Object.freeze({
        ...member,
        ...(renamed ? { name: namespaced(member.name, at.namespace, at.separator) } : {}),
        origin: origin(member.origin),
        middleware: around(member.middleware),
      });
      byMount.set(key, mounted);
    }
    return mounted;
  };
  return {
    tools: served.tools.map((t) => copy(t, true)),
    prompts: served.prompts.map((p) => copy(p, true)),
    resources: served.resources.map((r) => copy(r, false)),
    templates: served.templates.map((t) => copy(t, false)),
  };
}

const copies = new WeakMap<object, WeakMap<readonly unknown[], Map<string, object>>>();

function cache(member: object, middleware: readonly unknown[]): Map<string, object> {
  let byMiddleware = copies.get(member);
  if (!byMiddleware) copies.set(member, (byMiddleware = new WeakMap()));
  let byMount = byMiddleware.get(middleware);
  if (!byMount) byMiddleware.set(middleware, (byMount = new Map()));
  return byMount;
}
