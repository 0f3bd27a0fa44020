// Inlines the document's internal `$ref`s so each tool's schemas stand alone on the wire, and
// turns OpenAPI 3.0 schema dialect into JSON Schema (2020-12, what the core validator reads).

/** Formats the core validator (ajv-formats) knows; others are dropped (validated by type only). */
export const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

// Keywords OpenAPI 3.0 adds to schemas that mean nothing to a JSON Schema validator.
const OPENAPI_ONLY = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example']);

/** Reads a local `#/...` pointer in `root`. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Follows `$ref`s on a non-schema object (parameter, request body, response), returning the
 * target. A reference chain that loops returns undefined.
 */
export function follow<T>(root: unknown, node: T): T | undefined {
  const seen = new Set<string>();
  let current: unknown = node;
  while (typeof current === 'object' && current !== null && '$ref' in current) {
    const ref = String((current as { $ref: unknown }).$ref);
    if (seen.has(ref)) return undefined;
    seen.add(ref);
    current = resolvePointer(root, ref);
  }
  return current as T | undefined;
}

/**
 * A self-contained JSON Schema from an OpenAPI schema: internal `$ref`s inlined, and a `$ref`
 * back into a schema being inlined (a recursive type) replaced by an open schema whose
 * description names the type — recursion cannot be inlined, and any value then passes there.
 */
export function toJsonSchema(root: unknown, schema: unknown, openapi30: boolean): unknown {
  return convert(root, schema, openapi30, []);
}

function convert(root: unknown, node: unknown, v30: boolean, stack: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(root, n, v30, stack));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const ref = obj.$ref;
    const name = ref.split('/').pop() ?? ref;
    if (stack.includes(ref)) return { description: `A ${name} (recursive; not checked here)` };
    const target = resolvePointer(root, ref);
    if (target === undefined) return {};
    const inlined = convert(root, target, v30, [...stack, ref]) as Record<string, unknown>;
    // 3.1 allows siblings next to $ref (description, …); they refine the target.
    const { $ref: _ref, ...siblings } = obj;
    return Object.keys(siblings).length > 0
      ? { ...inlined, ...(convert(root, siblings, v30, stack) as object) }
      : inlined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key.startsWith('x-')) continue;
    if (v30 && OPENAPI_ONLY.has(key)) continue;
    if (key === 'format' && (typeof value !== 'string' || !KNOWN_FORMATS.has(value))) continue;
    if (key === 'default' || key === 'enum' || key === 'const' || key === 'examples') {
      out[key] = value; // data, not schema
      continue;
    }
    if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          convert(root, v, v30, stack),
        ]),
      );
      continue;
    }
    out[key] = convert(root, value, v30, stack);
  }
  if (v30) {
    if (obj.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    for (const [bound, limit] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof obj[bound] === 'boolean') {
        delete out[bound];
        if (obj[bound] === true && typeof obj[limit] === 'number') {
          out[bound] = obj[limit];
          delete out[limit];
        }
      }
    }
  }
  return out;
}
