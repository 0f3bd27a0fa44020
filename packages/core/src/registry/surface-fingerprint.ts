import type { Members } from './scan.js';

/** The `_meta` key of the Server Card that carries {@link surfaceFingerprint}. */
export const SURFACE_FINGERPRINT_KEY = 'io.github.mcp-fw/surface-fingerprint';

// JSON with object keys sorted at every level: the same surface gives the same text whatever
// order decorators, mounts or schema converters produced the keys in.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const byKey = <T>(items: readonly T[], key: (item: T) => string) =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/**
 * What the fingerprint covers — the contract clients rely on, as `mcp-fw surface snapshot`
 * records it: tools with their descriptions and input and output schemas, prompts with their
 * arguments, resources and templates with their MIME types.
 */
export function surfaceContract(members: Members): unknown {
  return {
    tools: byKey(members.tools, (t) => t.name).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
    })),
    prompts: byKey(members.prompts, (p) => p.name).map((p) => ({
      name: p.name,
      description: p.description,
      arguments: p.arguments.map(({ name, required }) => ({ name, required: required === true })),
    })),
    resources: byKey(members.resources, (r) => r.uri).map((r) => ({
      uri: r.uri,
      mimeType: r.mimeType,
    })),
    resourceTemplates: byKey(members.templates, (t) => t.uriTemplate).map((t) => ({
      uriTemplate: t.uriTemplate,
      mimeType: t.mimeType,
    })),
  };
}

const fingerprints = new WeakMap<object, Promise<string>>();

/**
 * A SHA-256 fingerprint (`sha256:` and 64 hex digits) of the surface a server serves now:
 * its tools, prompts, resources and templates with their schemas (see `surfaceContract`).
 * `mcp-fw surface snapshot` writes it to the lock file and the HTTP Server Card serves it in
 * `_meta["io.github.mcp-fw/surface-fingerprint"]`, so a client or registry can tell at a
 * glance whether the surface it pinned is still the one served. Runtime-neutral (Web Crypto);
 * computed once per registry version.
 *
 * @example
 * ```ts
 * const fingerprint = await surfaceFingerprint(server.registry); // 'sha256:3f1c…'
 * ```
 */
export function surfaceFingerprint(registry: Members): Promise<string> {
  let result = fingerprints.get(registry);
  if (!result) {
    const bytes = new TextEncoder().encode(canonical(surfaceContract(registry)));
    result = globalThis.crypto.subtle
      .digest('SHA-256', bytes)
      .then(
        (digest) =>
          `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`,
      );
    fingerprints.set(registry, result);
  }
  return result;
}
