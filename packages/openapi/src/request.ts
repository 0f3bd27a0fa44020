import { BodyError, type BodyField, encodeBody, type EncodedBody } from './body.js';
import type { InputPlan } from './input.js';

/**
 * Credentials sent to the upstream API with every request.
 *
 * @example
 * ```ts
 * const auth: UpstreamAuth = { type: 'apiKey', in: 'header', name: 'X-Api-Key', value: process.env.API_KEY ?? '' };
 * ```
 */
export type UpstreamAuth =
  | {
      type: 'bearer';
      /** The token, or a function returning it (called per request, so it can rotate). */
      token: string | (() => string | Promise<string>);
    }
  | {
      type: 'basic';
      /** The user name of HTTP Basic authentication. */
      username: string;
      /** The password of HTTP Basic authentication. */
      password: string;
    }
  | {
      type: 'apiKey';
      /** Where the key goes. */
      in: 'header' | 'query' | 'cookie';
      /** The header, query parameter or cookie name. */
      name: string;
      /** The key. */
      value: string;
    };

/** How requests reach the upstream; shared by every member of one `fromOpenAPI` server. */
export interface Upstream {
  readonly baseUrl: URL;
  readonly fetch: typeof fetch;
  readonly auth?: UpstreamAuth;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** What came back, read within the limits. */
export interface UpstreamResponse {
  readonly status: number;
  readonly url: string;
  readonly contentType: string;
  readonly body: Uint8Array;
}

/** A refusal on the way (timeout, size, redirect): the message is for the client. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

const MAX_REDIRECTS = 5;

/** Builds the request for `args` and sends it, following same-origin redirects only. */
export async function send(
  upstream: Upstream,
  method: string,
  path: string,
  plan: InputPlan,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<UpstreamResponse> {
  let resolvedPath = path;
  const query: string[] = [];
  const q = (name: string, value: string) =>
    query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  const headers: Record<string, string> = { ...upstream.headers };
  const cookies: string[] = [];
  const fields: BodyField[] = [];
  let whole: BodyField | undefined;
  for (const p of plan.placements) {
    const value = args[p.arg];
    if (value === undefined) continue;
    switch (p.in) {
      case 'path':
        resolvedPath = resolvedPath.replaceAll(`{${p.name}}`, encodeURIComponent(scalar(value)));
        break;
      case 'query':
        if (Array.isArray(value) && p.delimiter !== undefined) {
          // A comma joins literally (`tags=dog,cat`); a space or pipe is escaped; items always are.
          const joiner = p.delimiter === ',' ? ',' : encodeURIComponent(p.delimiter);
          const items = value.map((v) => encodeURIComponent(scalar(v)));
          query.push(`${encodeURIComponent(p.name)}=${items.join(joiner)}`);
        } else if (Array.isArray(value)) for (const v of value) q(p.name, scalar(v));
        else q(p.name, scalar(value));
        break;
      case 'header':
        headers[p.name] = scalar(value);
        break;
      case 'cookie':
        cookies.push(`${p.name}=${encodeURIComponent(scalar(value))}`);
        break;
      case 'body':
        fields.push({ placement: p, value });
        break;
      case 'whole-body':
        whole = { placement: p, value };
        break;
    }
  }
  const auth = upstream.auth;
  if (auth?.type === 'bearer') {
    const token = typeof auth.token === 'function' ? await auth.token() : auth.token;
    headers.authorization = `Bearer ${token}`;
  } else if (auth?.type === 'basic') {
    headers.authorization = `Basic ${btoa(`${auth.username}:${auth.password}`)}`;
  } else if (auth?.type === 'apiKey') {
    if (auth.in === 'header') headers[auth.name] = auth.value;
    else if (auth.in === 'query') q(auth.name, auth.value);
    else cookies.push(`${auth.name}=${encodeURIComponent(auth.value)}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  let payload: EncodedBody['payload'] | undefined;
  if ((fields.length > 0 || whole) && plan.bodyType !== undefined) {
    let encoded: EncodedBody;
    try {
      encoded = encodeBody(plan.bodyType, fields, whole);
    } catch (error) {
      if (error instanceof BodyError) throw new UpstreamError(error.message);
      throw error;
    }
    payload = encoded.payload;
    if (encoded.contentType) headers['content-type'] = encoded.contentType;
  }
  const base = upstream.baseUrl.href.replace(/\/$/, '');
  let url = new URL(base + resolvedPath);
  const search = query.join('&');
  if (search) url.search = url.search ? `${url.search}&${search}` : search;
  const timeout = AbortSignal.timeout(upstream.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    for (let hop = 0; ; hop++) {
      const response = await upstream.fetch(url, {
        method: method.toUpperCase(),
        headers,
        body: payload,
        redirect: 'manual',
        signal: combined,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.origin !== upstream.baseUrl.origin) {
          throw new UpstreamError(
            `the API redirected to ${next.origin}, another host than ${upstream.baseUrl.origin}; not followed (credentials would leak). Fix: set baseUrl to the API's final address.`,
          );
        }
        if (hop >= MAX_REDIRECTS)
          throw new UpstreamError(`more than ${MAX_REDIRECTS} redirects from ${url.href}`);
        url = next;
        continue;
      }
      return {
        status: response.status,
        url: url.href,
        contentType: response.headers.get('content-type') ?? '',
        body: await readCapped(response, upstream.maxResponseBytes),
      };
    }
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) {
      throw new UpstreamError(
        `the API did not answer ${method.toUpperCase()} ${path} within ${upstream.timeoutMs} ms. Fix: raise timeoutMs if it is slow by design.`,
      );
    }
    throw error;
  }
}

async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw tooBig(max);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooBig(max);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function tooBig(max: number): UpstreamError {
  return new UpstreamError(
    `the API's answer is over maxResponseBytes (${max} bytes); not read. Fix: ask for less (filters, paging) or raise maxResponseBytes.`,
  );
}

function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
