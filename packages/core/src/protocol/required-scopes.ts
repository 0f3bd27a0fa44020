import { findResource, type Registry } from '../registry/index.js';
import { decodeHeaderValue } from './eras/modern/http-ladder.js';

/** A request's use of one member that declares OAuth scopes. */
export interface ScopeNeed {
  /**
   * `tools/call`, `prompts/get`, `resources/read`, `resources/subscribe`, `subscriptions/listen`
   * (each URI of its `resourceSubscriptions`) or `completion/complete`.
   */
  readonly method: string;
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  /** Every scope the member requires. */
  readonly scopes: readonly string[];
}

// Methods that reach one member, and the params field naming it.
const TARGET: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'resources/subscribe': 'uri',
};

/**
 * What the HTTP transport asks before dispatch: which scopes the member a request targets
 * requires. 2026-07-28 requests are answered from the `Mcp-Method` / `Mcp-Name` headers, before
 * the body is read (the body is later checked to agree with them, or refused); legacy messages
 * from their parsed body. Members without scopes need nothing.
 */
export function scopeLookup(registry: () => Registry) {
  const need = (method: string, kind: ScopeNeed['kind'], name: unknown): ScopeNeed | undefined => {
    if (typeof name !== 'string') return undefined;
    const reg = registry();
    let scopes: readonly string[] | undefined;
    if (kind === 'tool') scopes = reg.tool(name)?.scopes;
    else if (kind === 'prompt') scopes = reg.prompt(name)?.scopes;
    // A completion names a template by its URI template; a read names a concrete URI.
    else if (method === 'completion/complete')
      scopes = (reg.templates.find((t) => t.uriTemplate === name) ?? reg.resource(name))?.scopes;
    else scopes = findResource(reg, name)?.member.scopes;
    return scopes && scopes.length > 0 ? { method, kind, name, scopes } : undefined;
  };
  const kindOf = (method: string): ScopeNeed['kind'] =>
    method === 'tools/call' ? 'tool' : method === 'prompts/get' ? 'prompt' : 'resource';
  return {
    fromHeaders(header: (name: string) => string | undefined): ScopeNeed | undefined {
      const method = header('mcp-method')?.trim();
      const raw = header('mcp-name');
      if (method === undefined || !Object.hasOwn(TARGET, method) || raw === undefined)
        return undefined;
      return need(method, kindOf(method), decodeHeaderValue(raw.trim()));
    },
    fromMessage(message: unknown, headersDecided = false): ScopeNeed[] {
      const needs: ScopeNeed[] = [];
      for (const m of Array.isArray(message) ? message : [message]) {
        const { method, params } = (m ?? {}) as {
          method?: unknown;
          params?: Record<string, unknown>;
        };
        if (typeof method !== 'string') continue;
        if (method === 'subscriptions/listen') {
          // Every URI a listen stream follows is read through its updates: each needs the scopes
          // `resources/read` of it would (the routing headers name none of them).
          const filter = (params?.notifications ?? {}) as { resourceSubscriptions?: unknown };
          const uris = filter.resourceSubscriptions;
          if (!Array.isArray(uris)) continue;
          for (const uri of uris) {
            const found = need(method, 'resource', uri);
            if (found) needs.push(found);
          }
          continue;
        }
        let found: ScopeNeed | undefined;
        if (method === 'completion/complete') {
          // Completing a member's arguments reveals what it would accept: the member's scopes apply.
          const ref = params?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
          if (ref?.type === 'ref/prompt') found = need(method, 'prompt', ref.name);
          else if (ref?.type === 'ref/resource') found = need(method, 'resource', ref.uri);
        } else if (!headersDecided && Object.hasOwn(TARGET, method)) {
          found = need(method, kindOf(method), params?.[TARGET[method]]);
        }
        if (found) needs.push(found);
      }
      return needs;
    },
  };
}
