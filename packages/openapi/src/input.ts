import { follow, toJsonSchema } from './deref.js';
import { OpenAPIError } from './errors.js';
import type { Operation } from './operations.js';

const MULTIPART = 'multipart/form-data';

/** Where one argument of the tool goes in the HTTP request. */
export interface ArgPlacement {
  /** The argument's name in the tool's input schema. */
  readonly arg: string;
  /** The name on the wire (the parameter's, or the body property's). */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie' | 'body' | 'whole-body';
  /**
   * For a query array sent as one parameter (`style: form, explode: false`, Swagger 2.0's
   * `collectionFormat: csv`): what joins the items. Absent: one `name=value` per item.
   */
  readonly delimiter?: string;
  /**
   * A file: the argument is base64 and is sent as bytes — a multipart part of this media type
   * (named after the argument), or the whole body.
   */
  readonly file?: { readonly contentType: string };
}

/** An operation's input: one JSON Schema, and where each argument goes. */
export interface InputPlan {
  readonly schema: Record<string, unknown>;
  readonly placements: readonly ArgPlacement[];
  /** The request body's media type, if the operation takes one. */
  readonly bodyType?: string;
}

interface Candidate {
  name: string;
  in: ArgPlacement['in'];
  delimiter?: string;
  file?: { contentType: string };
  schema: unknown;
  required: boolean;
  description?: string;
}

/**
 * Folds path, query, header and cookie parameters and the request body into one object schema.
 * A JSON or form body whose schema is an object contributes its properties as arguments; any
 * other body is one `body` argument. Names used by more than one place are all renamed to
 * `name__in` (`id__path`, `id__query`, `id__body`), so none is silently shadowed.
 */
export function planInput(doc: Record<string, unknown>, op: Operation, v30: boolean): InputPlan {
  const candidates: Candidate[] = [];
  const byKey = new Map<string, number>();
  for (const [i, raw] of op.parameters.entries()) {
    const param = follow(doc, raw) as Record<string, unknown> | undefined;
    const where = `${op.pointer}/parameters/${i}`;
    if (!param || typeof param.name !== 'string' || typeof param.in !== 'string') {
      throw new OpenAPIError(
        'INVALID_SCHEMA',
        where,
        'a parameter without a resolvable name and "in". Fix: correct the parameter or its $ref.',
      );
    }
    const place = param.in as Candidate['in'];
    let schema = param.schema;
    if (schema === undefined && typeof param.content === 'object' && param.content !== null) {
      schema = (Object.values(param.content)[0] as { schema?: unknown } | undefined)?.schema;
    }
    const candidate: Candidate = {
      name: param.name,
      in: place,
      schema: toJsonSchema(doc, schema ?? {}, v30),
      required: param.required === true || place === 'path',
      description: typeof param.description === 'string' ? param.description.trim() : undefined,
      delimiter: place === 'query' ? delimiterOf(param) : undefined,
    };
    // An operation's parameter overrides the path item's one of the same name and place.
    const key = `${place}\0${param.name}`;
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, candidates.length);
      candidates.push(candidate);
    } else candidates[at] = candidate;
  }
  let bodyType: string | undefined;
  const body = follow(doc, op.requestBody) as Record<string, unknown> | undefined;
  if (body && typeof body.content === 'object' && body.content !== null) {
    const content = body.content as Record<string, { schema?: unknown }>;
    const types = Object.keys(content);
    bodyType =
      types.find((t) => /^application\/(.+\+)?json/.test(t)) ??
      types.find((t) => t === 'application/x-www-form-urlencoded') ??
      types[0];
    if (bodyType !== undefined) {
      const schema = toJsonSchema(doc, content[bodyType]?.schema ?? {}, v30) as Record<
        string,
        unknown
      >;
      const required = body.required === true;
      const props = schema.properties as Record<string, unknown> | undefined;
      const form = bodyType === 'application/x-www-form-urlencoded' || bodyType === MULTIPART;
      const foldable =
        (bodyType.includes('json') || form) &&
        props !== undefined &&
        (schema.type === 'object' || schema.type === undefined) &&
        schema.allOf === undefined &&
        schema.oneOf === undefined &&
        schema.anyOf === undefined;
      const merged = foldable
        ? {
            properties: props,
            required: new Set(Array.isArray(schema.required) ? schema.required.map(String) : []),
          }
        : bodyType.includes('json') || form
          ? flattenAllOf(schema)
          : undefined;
      if (merged) {
        const encoding = (
          content[bodyType] as { encoding?: Record<string, { contentType?: unknown }> }
        ).encoding;
        for (const [name, sub] of Object.entries(merged.properties)) {
          const file =
            bodyType === MULTIPART ? fileOf(sub, encoding?.[name]?.contentType) : undefined;
          candidates.push({
            name,
            in: 'body',
            schema: file ? file.schema : sub,
            required: required && merged.required.has(name),
            ...(file ? { file: { contentType: file.contentType } } : {}),
          });
        }
      } else {
        const file = bodyType.includes('json')
          ? undefined
          : (fileOf(schema, bodyType) ??
            // A body of a binary media type with no schema (image/png: {}) is a file too.
            (schema.type === undefined && !/^text\/|json|xml|form|yaml/.test(bodyType)
              ? fileOf({ type: 'string', format: 'binary' }, bodyType)
              : undefined));
        candidates.push({
          name: 'body',
          in: 'whole-body',
          schema: bodyType.includes('json') ? schema : (file?.schema ?? { type: 'string' }),
          required,
          description: typeof body.description === 'string' ? body.description.trim() : undefined,
          ...(file ? { file: { contentType: file.contentType } } : {}),
        });
      }
    }
  }
  const count = new Map<string, number>();
  for (const c of candidates) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const placements: ArgPlacement[] = [];
  for (const c of candidates) {
    const arg =
      (count.get(c.name) ?? 0) > 1 ? `${c.name}__${c.in === 'whole-body' ? 'body' : c.in}` : c.name;
    const sub = { ...(c.schema as Record<string, unknown>) };
    if (c.description && sub.description === undefined) sub.description = c.description;
    properties[arg] = sub;
    if (c.required) required.push(arg);
    placements.push({
      arg,
      name: c.name,
      in: c.in,
      ...(c.delimiter !== undefined ? { delimiter: c.delimiter } : {}),
      ...(c.file ? { file: c.file } : {}),
    });
  }
  return {
    schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    placements,
    bodyType,
  };
}

// `allOf` of object schemas (a common way to extend a type) folded into one property list.
function flattenAllOf(
  schema: Record<string, unknown>,
): { properties: Record<string, unknown>; required: Set<string> } | undefined {
  if (!Array.isArray(schema.allOf)) return undefined;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const part of schema.allOf as Record<string, unknown>[]) {
    const nested = flattenAllOf(part);
    const props = nested?.properties ?? (part.properties as Record<string, unknown> | undefined);
    if (!props) return undefined;
    Object.assign(properties, props);
    for (const r of nested?.required ?? (Array.isArray(part.required) ? part.required : []))
      required.add(String(r));
  }
  return { properties, required };
}

// OpenAPI's query serialisation of arrays: `form` explodes by default (`?a=1&a=2`); unexploded
// `form` joins with commas, `spaceDelimited` and `pipeDelimited` with a space or a pipe.
function delimiterOf(param: Record<string, unknown>): string | undefined {
  const style = typeof param.style === 'string' ? param.style : 'form';
  const explode = typeof param.explode === 'boolean' ? param.explode : style === 'form';
  if (explode) return undefined;
  if (style === 'spaceDelimited') return ' ';
  if (style === 'pipeDelimited') return '|';
  return ',';
}

/**
 * A file in a request body — `format: binary` (3.0), or `contentMediaType` / `contentEncoding`
 * (3.1) — becomes a base64 string argument: MCP arguments are JSON, so bytes travel as base64
 * (a resource link would make the server fetch something the caller names, an SSRF door).
 */
function fileOf(
  schema: unknown,
  declaredType: unknown,
): { schema: Record<string, unknown>; contentType: string } | undefined {
  const s = schema as Record<string, unknown>;
  const isFile =
    s.type === 'string' &&
    (s.format === 'binary' || s.contentMediaType !== undefined || s.contentEncoding !== undefined);
  if (!isFile) return undefined;
  const contentType =
    typeof declaredType === 'string' && !declaredType.includes('*') && !declaredType.includes(',')
      ? declaredType
      : typeof s.contentMediaType === 'string'
        ? s.contentMediaType
        : 'application/octet-stream';
  const { format: _format, ...rest } = s;
  return {
    schema: {
      ...rest,
      contentEncoding: 'base64',
      contentMediaType: contentType,
      description: `${typeof s.description === 'string' ? `${s.description.trim()} ` : ''}(a file: its bytes, base64-encoded)`,
    },
    contentType,
  };
}
