import {
  createServer,
  Resource,
  Tool,
  UserError,
  type McpFwServer,
  type ServerOptions,
} from '@mcp-fw/core';
import { toJsonSchema } from './deref.js';
import { OpenAPIError } from './errors.js';
import { planInput, type InputPlan } from './input.js';
import { loadSpec, type OpenAPISource } from './load.js';
import {
  annotationsOf,
  collectOperations,
  describe,
  nameOperations,
  routeOf,
  type Operation,
  type RouteMap,
} from './operations.js';
import { send, type Upstream, type UpstreamResponse } from './request.js';
import { excerpt, failure, isText } from './response.js';
import { checkLimit, upstreamOf, type UpstreamOptions } from './upstream.js';
import { UpstreamError } from './upstream-error.js';

/** Options of {@link fromOpenAPI}. Only `baseUrl` is required. */
export interface FromOpenAPIOptions extends UpstreamOptions {
  /** What each operation becomes; first match wins, unmatched operations are tools. See {@link RouteMap}. */
  routeMaps?: readonly RouteMap[];
  /** Member names by operationId or by `'METHOD /path'` (`{ 'GET /pets': 'list_pets' }`). */
  names?: Readonly<Record<string, string>>;
  /**
   * The largest response schema declared as a tool's `outputSchema`, in bytes of JSON (default
   * 16 KiB). A larger one is left out (the answer comes back as JSON text): it would swell every
   * `tools/list` and slow startup. `0` declares none.
   */
  maxOutputSchemaBytes?: number;
  /** Prefix of resource URIs (default `openapi://`): `openapi://list_pets`, `openapi://get_pet/{id}`. */
  uriPrefix?: string;
  /** Server options (`name` and `version` default to the document's `info.title` and `info.version`). */
  server?: Partial<Omit<ServerOptions, 'providers'>>;
}

/** What a member's handler reads of its context: the cancellation signal and the caller. */
type Caller = { readonly signal?: AbortSignal; readonly auth?: unknown };

/**
 * Serves a REST API described by an OpenAPI 3.0 or 3.1 (or Swagger 2.0) document: each operation becomes a tool
 * (or, by `routeMaps`, a resource, a resource template, or nothing) that sends the HTTP request
 * and returns the answer. The document is read, validated and `$ref`-resolved once, here; any
 * problem is an {@link OpenAPIError} naming the JSON pointer and the fix.
 *
 * @example
 * ```ts
 * import { fromOpenAPI } from '@mcp-fw/openapi';
 * import { serveHttp } from '@mcp-fw/core/node';
 *
 * const petstore = await fromOpenAPI('./petstore.yaml', {
 *   baseUrl: 'https://petstore.example.com/api',
 *   auth: { type: 'bearer', token: process.env.PETSTORE_TOKEN! },
 *   routeMaps: [{ methods: ['GET'], pattern: /\{/, type: 'template' }],
 * });
 * app.mount(petstore, { namespace: 'pets' }); // or serve it on its own
 * ```
 */
export async function fromOpenAPI(
  source: OpenAPISource,
  options: FromOpenAPIOptions,
): Promise<McpFwServer> {
  const upstream = upstreamOf(options);
  checkLimit('maxOutputSchemaBytes', options.maxOutputSchemaBytes, 0);
  const doc = await loadSpec(source);
  const v30 = String(doc.openapi).startsWith('3.0');
  const ops = collectOperations(doc);
  const routed = ops
    .map((op) => ({ op, type: routeOf(op, options.routeMaps ?? []) }))
    .filter((r) => r.type !== 'exclude');
  const names = nameOperations(
    routed.map((r) => r.op),
    options.names ?? {},
  );
  const uriPrefix = options.uriPrefix ?? 'openapi://';
  const maxOutput = options.maxOutputSchemaBytes ?? 16 * 1024;

  // A fresh class per document: decorators record members on the class, so the operations of
  // two documents never mix. Methods are added, then decorated the way `experimentalDecorators`
  // would (target, key).
  const Operations = class {};
  Object.defineProperty(Operations, 'name', {
    value: `OpenAPI(${String((doc.info as { title?: unknown })?.title ?? 'api')})`,
  });
  const proto = Operations.prototype as Record<string, unknown>;

  for (const [i, { op, type }] of routed.entries()) {
    const name = names[i] as string;
    const plan = planInput(doc, op, v30);
    const success = successResponse(doc, op, v30);
    const meta = op.tags.length > 0 ? { tags: [...op.tags] } : undefined;
    if (type === 'tool') {
      const output = success.schema ? outputOf(success.schema, maxOutput) : undefined;
      proto[name] = async (args: Record<string, unknown>, ctx: Caller) => {
        const response = await call(upstream, op, plan, args, ctx);
        return toolResult(response, op, output?.wrapped);
      };
      Tool({
        name,
        description: describe(op),
        input: plan.schema,
        ...(output ? { output: output.schema } : {}),
        annotations: annotationsOf(op.method),
        ...(meta ? { _meta: meta } : {}),
      })(proto, name);
      continue;
    }
    const pathArgs = plan.placements.filter((p) => p.in === 'path');
    const other = plan.placements.filter(
      (p) => p.in !== 'path' && (plan.schema.required as string[] | undefined)?.includes(p.arg),
    );
    if (other.length > 0) {
      throw new OpenAPIError(
        'CONFLICTING_OPTIONS',
        op.pointer,
        `route maps make ${op.method.toUpperCase()} ${op.path} a ${type}, but it requires ${other.map((p) => `${p.in} argument "${p.arg}"`).join(', ')}, which a resource URI cannot carry. Fix: map it to a tool.`,
      );
    }
    if (type === 'resource' && pathArgs.length > 0) {
      throw new OpenAPIError(
        'CONFLICTING_OPTIONS',
        op.pointer,
        `route maps make ${op.method.toUpperCase()} ${op.path} a resource, but its path has parameters (${pathArgs.map((p) => p.name).join(', ')}). Fix: map it to a template (type: 'template') or a tool.`,
      );
    }
    if (type === 'template' && pathArgs.length === 0) {
      throw new OpenAPIError(
        'CONFLICTING_OPTIONS',
        op.pointer,
        `route maps make ${op.method.toUpperCase()} ${op.path} a template, but its path has no parameters. Fix: map it to a resource (type: 'resource').`,
      );
    }
    const uri = `${uriPrefix}${name}${pathArgs.map((p) => `/{${p.arg}}`).join('')}`;
    proto[name] = async (variables: Record<string, unknown> | undefined, ctx: Caller) => {
      // A fixed resource's first argument is not variables: send nothing from it.
      const args = type === 'template' ? (variables ?? {}) : {};
      const response = await call(upstream, op, plan, args, ctx);
      if (response.status < 200 || response.status > 299)
        throw new UserError(failure(response, op.method, op.path));
      return isText(response.contentType) ? new TextDecoder().decode(response.body) : response.body;
    };
    Resource(uri, {
      name,
      description: describe(op),
      ...(success.mediaType ? { mimeType: success.mediaType } : {}),
      ...(meta ? { _meta: meta } : {}),
    })(proto, name);
  }

  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown; description?: unknown };
  return createServer({
    name: String(info.title ?? 'openapi'),
    version: String(info.version ?? '0.0.0'),
    ...options.server,
    providers: routed.length > 0 ? [new Operations()] : [],
  });
}

async function call(
  upstream: Upstream,
  op: Operation,
  plan: InputPlan,
  args: Record<string, unknown>,
  ctx: Caller | undefined,
): Promise<UpstreamResponse> {
  try {
    return await send(upstream, op.method, op.path, plan, args, ctx?.signal, ctx?.auth);
  } catch (error) {
    if (error instanceof UpstreamError) throw new UserError(error.message);
    throw new UserError(
      `${op.method.toUpperCase()} ${op.path} could not reach the API at ${upstream.baseUrl.origin}: ${(error as Error).message}`,
    );
  }
}

/** The first 2xx response's media type and (JSON) schema. */
function successResponse(
  doc: Record<string, unknown>,
  op: Operation,
  v30: boolean,
): { mediaType?: string; schema?: Record<string, unknown> } {
  const codes = Object.keys(op.responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  for (const code of codes) {
    let response = op.responses[code] as Record<string, unknown> | undefined;
    if (response && typeof response.$ref === 'string') {
      response = toJsonSchema(doc, response, v30) as Record<string, unknown>;
    }
    const content = response?.content as Record<string, { schema?: unknown }> | undefined;
    if (!content) continue;
    const mediaType =
      Object.keys(content).find((t) => t.includes('json')) ?? Object.keys(content)[0];
    if (mediaType === undefined) continue;
    const raw = content[mediaType]?.schema;
    return {
      mediaType,
      schema:
        raw !== undefined && mediaType.includes('json')
          ? (toJsonSchema(doc, raw, v30) as Record<string, unknown>)
          : undefined,
    };
  }
  return {};
}

/**
 * MCP output schemas are objects; anything else is wrapped as `{ result }`. A schema larger than
 * `max` bytes is not declared: real APIs inline whole object graphs into each response (GitHub's
 * largest is 420 kB), which would swell `tools/list` for every client and cost seconds of
 * validator compilation per tool at startup; the answer is then returned as JSON text.
 */
function outputOf(
  schema: Record<string, unknown>,
  max: number,
): { schema: Record<string, unknown>; wrapped: boolean } | undefined {
  if (JSON.stringify(schema).length > max) return undefined;
  const isObject =
    schema.type === 'object' ||
    (schema.type === undefined && (schema.properties !== undefined || Array.isArray(schema.allOf)));
  if (isObject) return { schema, wrapped: false };
  return {
    schema: { type: 'object', properties: { result: schema }, required: ['result'] },
    wrapped: true,
  };
}

function toolResult(response: UpstreamResponse, op: Operation, wrapped: boolean | undefined) {
  if (response.status < 200 || response.status > 299) {
    return {
      content: [{ type: 'text' as const, text: failure(response, op.method, op.path) }],
      isError: true,
    };
  }
  if (response.body.byteLength === 0) {
    return { content: [{ type: 'text' as const, text: `HTTP ${response.status} (no body)` }] };
  }
  const text = isText(response.contentType) ? new TextDecoder().decode(response.body) : undefined;
  if (text === undefined) {
    const blob = base64(response.body);
    return {
      content: [
        {
          type: 'resource' as const,
          resource: {
            uri: response.url,
            mimeType: response.contentType || 'application/octet-stream',
            blob,
          },
        },
      ],
    };
  }
  if (/json/i.test(response.contentType)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return {
        content: [
          {
            type: 'text' as const,
            text: `${op.method.toUpperCase()} ${op.path}: the API answered invalid JSON: ${excerpt(text)}`,
          },
        ],
        isError: true,
      };
    }
    if (wrapped === undefined) return { content: [{ type: 'text' as const, text }] };
    return wrapped ? { result: value } : value;
  }
  return { content: [{ type: 'text' as const, text }] };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
