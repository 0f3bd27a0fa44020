import type { McpFwServer, PassThrough, PassThroughCall, PassThroughMethod } from '@mcp-fw/core';
import { refusedFor, type Mirror } from './mirror.js';
import { checked } from './results.js';
import type { Upstream } from './upstream.js';

// The proxy's fast path. A call of a member that is served exactly as its upstream lists it (no
// transform, output schema, task, scopes, limits or middleware of its own), from a legacy caller
// whose upstream connection is open and speaks the caller's revision, is sent on that connection
// as the caller sent it (the name the upstream gives the member put back), and the upstream's
// result is answered as it is, once its shape is checked. It skips the server pass a forwarded
// call otherwise takes (middleware, arguments checked against the upstream's schema, the
// member's handler and guardrails, the result normalised): the upstream checks the arguments
// itself. Everything else takes that full path: a 2026-07-28 caller or upstream (input rounds,
// the era's result envelope), a caller of another revision than its upstream connection's, the
// first call of a caller (it opens the connection), a call asking for a task.

/** One member the fast path may take, found in the registry being served. */
interface Route {
  readonly upstream: Upstream;
  /** What the upstream calls it (a tool or prompt name), when the server serves it renamed. */
  readonly rename: string | undefined;
  readonly what: string;
  /** The upstream's answer checked (an error naming the upstream when it lies), as passed on. */
  readonly check: (answer: unknown) => unknown;
}

/** The routes of one registry, by member name or URI, per method. */
interface Routes {
  readonly tools: Map<string, Route>;
  readonly prompts: Map<string, Route>;
  readonly resources: Map<string, Route>;
}

/** The members each upstream mirrors, for building routes. */
export interface MirroredUpstream {
  readonly upstream: Upstream;
  readonly mirror: Mirror;
}

/**
 * Core's {@link PassThrough} for a proxy: takes the calls of its untransformed mirrored members
 * (see above) while `enabled()` says the server has no middleware or limits it would skip.
 */
export class ProxyPassThrough implements PassThrough {
  readonly #server: McpFwServer;
  readonly #served: () => Iterable<MirroredUpstream>;
  readonly #enabled: () => boolean;
  /** Routes built once per registry (each change replaces the registry). */
  readonly #routes = new WeakMap<object, Routes>();
  /** Calls taken (tests read it). */
  taken = 0;
  /** What `take` returns answers failures through `call.failed` (upstream.ts). */
  readonly settlesFailures = true;

  constructor(
    server: McpFwServer,
    served: () => Iterable<MirroredUpstream>,
    enabled: () => boolean,
  ) {
    this.#server = server;
    this.#served = served;
    this.#enabled = enabled;
  }

  take(call: PassThroughCall): Promise<unknown> | undefined {
    if (call.era !== 'legacy' || !this.#enabled()) return undefined;
    const params = call.params;
    const method = call.method;
    const table = this.#table();
    let route: Route | undefined;
    if (method === 'tools/call') {
      // A task is the full path's (the call becomes one downstream when the upstream made one).
      if (params.task !== undefined || typeof params.name !== 'string') return undefined;
      route = table.tools.get(params.name);
    } else if (method === 'prompts/get') {
      if (typeof params.name !== 'string') return undefined;
      route = table.prompts.get(params.name);
    } else {
      if (typeof params.uri !== 'string') return undefined;
      route = table.resources.get(params.uri);
    }
    if (route === undefined) return undefined;
    const sent = route.rename === undefined ? params : { ...params, name: route.rename };
    const taking = route.upstream.passThrough(
      call,
      route.what,
      (client, options) => client.request(method, sent as Record<string, unknown>, options),
      route.check,
    );
    if (taking !== undefined) this.taken++;
    return taking;
  }

  #table(): Routes {
    const registry = this.#server.registry;
    let table = this.#routes.get(registry);
    if (!table) {
      table = buildRoutes(registry, this.#served());
      this.#routes.set(registry, table);
    }
    return table;
  }
}

type Registry = McpFwServer['registry'];

/** Whether a served member definition carries nothing the server would run around its handler. */
function plain(member: {
  readonly middleware: readonly unknown[];
  readonly scopes: readonly string[];
  readonly limits: { readonly timeoutMs?: number; readonly rateLimit?: unknown };
}): boolean {
  return (
    member.middleware.length === 0 &&
    member.scopes.length === 0 &&
    member.limits.timeoutMs === undefined &&
    member.limits.rateLimit === undefined
  );
}

/** A route's answer check: the shape `method` asks for, and for a tool a refusal made an error. */
function checker(upstream: Upstream, method: PassThroughMethod, what: string): Route['check'] {
  const name = upstream.settings.name;
  return method === 'tools/call'
    ? (answer) => refusedFor(checked(name, method, what, answer))
    : (answer) => checked(name, method, what, answer);
}

function buildRoutes(registry: Registry, served: Iterable<MirroredUpstream>): Routes {
  const own = registry.own;
  // A member served as its provider made it is the registry's own definition, the same object; a
  // transformed one (renamed, an argument hidden, wrapped) is a new definition.
  const untouched = new Set<object>([...own.tools, ...own.prompts, ...own.resources]);
  const routes: Routes = { tools: new Map(), prompts: new Map(), resources: new Map() };
  for (const { upstream, mirror } of served)
    for (const member of mirror.members()) {
      const rename = member.upstreamName === member.key ? undefined : member.upstreamName;
      const what = member.what;
      if (member.kind === 'tool') {
        const tool = registry.tool(member.key);
        // An output schema is checked by the full path (the proxy declares the upstream's).
        if (!tool || !untouched.has(tool) || !plain(tool) || tool.outputSchema !== undefined)
          continue;
        if (tool.task.mode !== 'forbidden') continue;
        const check = checker(upstream, 'tools/call', what);
        routes.tools.set(member.key, { upstream, rename, what, check });
      } else if (member.kind === 'prompt') {
        const prompt = registry.prompt(member.key);
        if (!prompt || !untouched.has(prompt) || !plain(prompt)) continue;
        const check = checker(upstream, 'prompts/get', what);
        routes.prompts.set(member.key, { upstream, rename, what, check });
      } else {
        const resource = registry.resource(member.key);
        if (!resource || !untouched.has(resource) || !plain(resource)) continue;
        const check = checker(upstream, 'resources/read', what);
        routes.resources.set(member.key, { upstream, rename: undefined, what, check });
      }
    }
  return routes;
}
