import { UserError } from '@mcp-fw/core';
import type { ArgPlacement } from './input.js';
import { send, type Upstream } from './request.js';
import { excerpt, failure, isText } from './response.js';
import { upstreamOf, type UpstreamOptions } from './upstream.js';
import { UpstreamError } from './upstream-error.js';

/**
 * One operation as generated code describes it: its method, its path as written in the
 * document, where each argument goes, and the request body's media type. `mcp-fw openapi`
 * writes these from the same planning `fromOpenAPI` does at runtime.
 */
export interface OperationSpec {
  /** `get`, `post`, … (any case). */
  readonly method: string;
  /** The path as the document writes it, `{name}` for path parameters: `/pets/{id}`. */
  readonly path: string;
  /** Where each argument goes in the request. */
  readonly placements: readonly ArgPlacement[];
  /** The request body's media type, if the operation takes one. */
  readonly bodyType?: string;
}

/** A binary answer (an image, a PDF): where it came from, its media type and its bytes. */
export interface OperationFile {
  readonly url: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** What a call reads of the MCP handler's context: its cancellation, and the caller (for `auth.forwardCallerToken`). */
export interface CallContext {
  readonly signal?: AbortSignal;
  readonly auth?: unknown;
}

/** Sends operations to one API; see {@link createOperationClient}. */
export interface OperationClient {
  /**
   * Sends `op` with `args` and decodes a 2xx answer: JSON parsed, other text as a string, binary
   * as an {@link OperationFile}, no body as `undefined`. Anything else — a non-2xx answer (its
   * status and the first 500 characters of its body), a timeout, an oversized answer, a redirect
   * to another host — throws a `UserError`, which a tool reports as an `isError` result.
   */
  call(op: OperationSpec, args: object, ctx?: CallContext): Promise<unknown>;
}

/**
 * The request layer of `fromOpenAPI` for code that describes its operations itself (what the
 * `ApiClient` that `mcp-fw openapi` generates calls): the same request building, credentials,
 * timeouts, size limit and same-origin redirects. The options are checked here, at startup.
 *
 * @example
 * ```ts
 * import { createOperationClient } from '@mcp-fw/openapi';
 *
 * const api = createOperationClient({ baseUrl: 'https://petstore.example.com/api' });
 * const pets = await api.call(
 *   { method: 'get', path: '/pets', placements: [{ arg: 'limit', name: 'limit', in: 'query' }] },
 *   { limit: 5 },
 * );
 * ```
 */
export function createOperationClient(options: UpstreamOptions): OperationClient {
  const upstream = upstreamOf(options);
  return { call: (op, args, ctx) => callOperation(upstream, op, args, ctx) };
}

async function callOperation(
  upstream: Upstream,
  op: OperationSpec,
  args: object,
  ctx: CallContext | undefined,
): Promise<unknown> {
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send(
      upstream,
      op.method.toLowerCase(),
      op.path,
      op,
      args as Record<string, unknown>,
      ctx?.signal,
      ctx?.auth,
    );
  } catch (error) {
    if (error instanceof UpstreamError) throw new UserError(error.message);
    throw new UserError(
      `${op.method.toUpperCase()} ${op.path} could not reach the API at ${upstream.baseUrl.origin}: ${(error as Error).message}`,
    );
  }
  if (response.status < 200 || response.status > 299)
    throw new UserError(failure(response, op.method, op.path));
  if (response.body.byteLength === 0) return undefined;
  if (!isText(response.contentType)) {
    return {
      url: response.url,
      contentType: response.contentType || 'application/octet-stream',
      bytes: response.body,
    } satisfies OperationFile;
  }
  const text = new TextDecoder().decode(response.body);
  if (!/json/i.test(response.contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new UserError(
      `${op.method.toUpperCase()} ${op.path}: the API answered invalid JSON: ${excerpt(text)}`,
    );
  }
}
