import { BodyError, type BodyField, encodeBody, type EncodedBody } from './body.js';
import type { InputPlan } from './input.js';
import { readCapped } from './read-capped.js';
import type { Credentials } from './upstream-auth.js';
import { UpstreamError } from './upstream-error.js';

/** How requests reach the upstream; shared by every member of one `fromOpenAPI` server. */
export interface Upstream {
  readonly baseUrl: URL;
  readonly fetch: typeof fetch;
  readonly credentials?: Credentials;
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

const MAX_REDIRECTS = 5;

/** Builds the request for `args` and sends it, following same-origin redirects only. */
export async function send(
  upstream: Upstream,
  method: string,
  path: string,
  plan: Pick<InputPlan, 'placements' | 'bodyType'>,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  caller?: unknown,
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
      case 'path': {
        const segment = encodeURIComponent(scalar(value));
        // `/` is escaped above, but a whole segment of dots (`.`, `..`, `%2e`) is still a dot
        // segment to the URL parser: `/pets/..` would reach `/`, another operation or API.
        if (/^(\.|%2e)*$/i.test(segment)) {
          throw new UpstreamError(
            `path parameter "${p.arg}" is ${JSON.stringify(scalar(value))}, which would change the request's path instead of naming one item. Fix: pass the item's id.`,
          );
        }
        resolvedPath = resolvedPath.replaceAll(`{${p.name}}`, segment);
        break;
      }
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
  const first = new URL(base + resolvedPath);
  // Defence in depth: whatever the arguments, the request stays under baseUrl.
  if (
    first.origin !== upstream.baseUrl.origin ||
    !`${first.pathname}/`.startsWith(`${upstream.baseUrl.pathname.replace(/\/$/, '')}/`)
  ) {
    throw new UpstreamError(
      `the request for ${method.toUpperCase()} ${path} would leave baseUrl (${first.href}); not sent. Fix: check the arguments of the path.`,
    );
  }
  const timeout = AbortSignal.timeout(upstream.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const authorised = async () => {
    const target = { headers: { ...headers }, cookies: [...cookies], query: [] as string[] };
    await upstream.credentials?.apply(
      {
        headers: target.headers,
        cookies: target.cookies,
        query: (name, value) =>
          target.query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
      },
      caller,
    );
    if (target.cookies.length > 0) target.headers.cookie = target.cookies.join('; ');
    const url = new URL(first.href);
    const search = [...query, ...target.query].join('&');
    if (search) url.search = url.search ? `${url.search}&${search}` : search;
    return { url, headers: target.headers };
  };
  try {
    let request = await authorised();
    let url = request.url;
    for (let hop = 0, retried = false; ; hop++) {
      const response = await upstream.fetch(url, {
        method: method.toUpperCase(),
        headers: request.headers,
        body: payload,
        redirect: 'manual',
        signal: combined,
      });
      // A 401 to a cached client-credentials token (revoked, or expired early): one retry with
      // a fresh token.
      if (response.status === 401 && !retried && upstream.credentials?.rejected()) {
        await response.body?.cancel();
        retried = true;
        request = await authorised();
        url = request.url;
        continue;
      }
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
    // A refusal already worded (the token endpoint timed out, a redirect elsewhere) stays as is.
    if (error instanceof UpstreamError) throw error;
    if (timeout.aborted && !signal?.aborted) {
      throw new UpstreamError(
        `the API did not answer ${method.toUpperCase()} ${path} within ${upstream.timeoutMs} ms. Fix: raise timeoutMs if it is slow by design.`,
      );
    }
    throw error;
  }
}

function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
