import { OpenAPIError, pointerOf } from './errors.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document, before it is mapped to a member. */
export interface Operation {
  readonly method: string;
  readonly path: string;
  /** `#/paths/~1pets/get` */
  readonly pointer: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  /** Path-level parameters then the operation's (an operation's overrides by name and `in`). */
  readonly parameters: readonly unknown[];
  readonly requestBody?: unknown;
  readonly responses: Record<string, unknown>;
  /** The raw operation object, for `names` and route-map callbacks. */
  readonly raw: Record<string, unknown>;
}

/** What an operation becomes. */
export type MemberType = 'tool' | 'resource' | 'template' | 'exclude';

/**
 * One rule of `routeMaps`: the first rule whose every given condition matches decides what an
 * operation becomes; an operation no rule matches is a tool.
 *
 * @example
 * ```ts
 * const routeMaps: RouteMap[] = [
 *   { tags: ['admin'], type: 'exclude' },
 *   { methods: ['GET'], pattern: /\{[^}]+\}/, type: 'template' },
 *   { methods: ['GET'], type: 'resource' },
 * ];
 * ```
 */
export interface RouteMap {
  /** HTTP methods (any case); absent: every method. */
  methods?: readonly string[];
  /** Matched against the path as written in the document (`/pets/{id}`); a string is a regular expression. */
  pattern?: RegExp | string;
  /** The operation must carry every one of these tags. */
  tags?: readonly string[];
  type: MemberType;
}

/** Every operation of `doc.paths`, in document order. */
export function collectOperations(doc: Record<string, unknown>): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (typeof op !== 'object' || op === null) continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      out.push({
        method,
        path,
        pointer: pointerOf('paths', path, method),
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        summary: typeof op.summary === 'string' ? op.summary : undefined,
        description: typeof op.description === 'string' ? op.description : undefined,
        parameters: [...shared, ...own],
        requestBody: op.requestBody,
        responses: (op.responses ?? {}) as Record<string, unknown>,
        raw: op,
      });
    }
  }
  return out;
}

/** The member type of an operation: the first matching rule's, else a tool. */
export function routeOf(op: Operation, maps: readonly RouteMap[]): MemberType {
  for (const map of maps) {
    if (map.methods && !map.methods.some((m) => m.toLowerCase() === op.method)) continue;
    if (map.pattern !== undefined) {
      const re = typeof map.pattern === 'string' ? new RegExp(map.pattern) : map.pattern;
      if (!re.test(op.path)) continue;
    }
    if (map.tags && !map.tags.every((t) => op.tags.includes(t))) continue;
    return map.type;
  }
  return 'tool';
}

/** The longest name served (MCP clients commonly cap tool names at 64 characters). */
export const MAX_NAME = 64;

/** `[A-Za-z0-9_-]` only, runs of anything else as one `_`, trimmed, at most 64 characters. */
export function sanitiseName(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME);
}

/**
 * Member names for the operations, in document order: `names[operationId]` or
 * `names['GET /path']` if given (used as is, but checked), else the sanitised operationId. Two
 * operations with the same operationId, or two given names alike, are a startup error; two
 * operationIds that only sanitise alike get `_2`, `_3`… in document order.
 */
export function nameOperations(
  ops: readonly Operation[],
  names: Readonly<Record<string, string>>,
): string[] {
  const byId = new Map<string, Operation>();
  const taken = new Map<string, Operation>();
  const result: string[] = [];
  const given = ops.map(
    (op) => names[op.operationId ?? '\0'] ?? names[`${op.method.toUpperCase()} ${op.path}`],
  );
  for (const [i, op] of ops.entries()) {
    const explicit = given[i];
    if (explicit !== undefined) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(explicit)) {
        throw new OpenAPIError(
          'INVALID_NAME',
          op.pointer,
          `names gives "${explicit}", which is not 1–64 of A-Za-z0-9_-. Fix: choose a name of those characters.`,
        );
      }
      const other = taken.get(explicit);
      if (other) {
        throw new OpenAPIError(
          'DUPLICATE_NAME',
          op.pointer,
          `names gives "${explicit}" here and to ${other.pointer}. Fix: give each operation its own name.`,
        );
      }
      taken.set(explicit, op);
    }
    if (op.operationId !== undefined) {
      const twin = byId.get(op.operationId);
      if (twin) {
        throw new OpenAPIError(
          'DUPLICATE_NAME',
          `${op.pointer}/operationId`,
          `operationId "${op.operationId}" is also used by ${twin.pointer} (OpenAPI requires unique operationIds). Fix: rename one in the document, or give this one a name with names: { '${op.method.toUpperCase()} ${op.path}': '...' }.`,
        );
      }
      byId.set(op.operationId, op);
    }
  }
  for (const [i, op] of ops.entries()) {
    if (given[i] !== undefined) {
      result.push(given[i]);
      continue;
    }
    const base = op.operationId === undefined ? '' : sanitiseName(op.operationId);
    if (base === '') {
      const why =
        op.operationId === undefined
          ? 'has no operationId'
          : `has operationId "${op.operationId}", which has no usable character`;
      throw new OpenAPIError(
        'INVALID_NAME',
        op.pointer,
        `the operation ${op.method.toUpperCase()} ${op.path} ${why}, so it has no name. Fix: add an operationId in the document, give it one with names: { '${op.method.toUpperCase()} ${op.path}': 'list_pets' }, or exclude it with a route map.`,
      );
    }
    let name = base;
    for (let n = 2; taken.has(name); n++)
      name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.set(name, op);
    result.push(name);
  }
  return result;
}

/** summary and description, trimmed, joined by a blank line (either alone if the other is absent). */
export function describe(op: Operation): string | undefined {
  const parts = [op.summary?.trim(), op.description?.trim()].filter((s): s is string => !!s);
  if (parts.length === 2 && parts[0] === parts[1]) parts.pop();
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** MCP tool annotations from the HTTP method's semantics (RFC 9110 safe and idempotent methods). */
export function annotationsOf(method: string) {
  const safe = method === 'get' || method === 'head' || method === 'options';
  return {
    readOnlyHint: safe,
    destructiveHint: method === 'delete',
    idempotentHint: safe || method === 'put' || method === 'delete',
    openWorldHint: true,
  };
}
