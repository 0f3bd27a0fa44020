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
  return {
    tools: served.tools.map((t) =>
      Object.freeze({
        ...t,
        name: namespaced(t.name, at.namespace, at.separator),
        origin: origin(t.origin),
        middleware: around(t.middleware),
      }),
    ),
    prompts: served.prompts.map((p) =>
      Object.freeze({
        ...p,
        name: namespaced(p.name, at.namespace, at.separator),
        origin: origin(p.origin),
        middleware: around(p.middleware),
      }),
    ),
    resources: served.resources.map((r) =>
      Object.freeze({ ...r, origin: origin(r.origin), middleware: around(r.middleware) }),
    ),
    templates: served.templates.map((t) =>
      Object.freeze({ ...t, origin: origin(t.origin), middleware: around(t.middleware) }),
    ),
  };
}
