import { OpenAPIError } from './errors.js';
import type { Upstream } from './request.js';
import { credentialsOf, type UpstreamAuth } from './upstream-auth.js';

/**
 * Where and how requests reach the API: shared by {@link fromOpenAPI} (runtime mode) and the
 * `ApiClient` that `mcp-fw openapi` generates, so both send the same requests within the same
 * limits. Only `baseUrl` is required.
 */
export interface UpstreamOptions {
  /**
   * Where the API is (`https://api.example.com/v1`); paths are appended to it. Required: the
   * document's own `servers` are never used on their own, so a document cannot send requests
   * (and your credentials) to an address you did not choose.
   */
  baseUrl: string | URL;
  /** The fetch used for every request (default `globalThis.fetch`): a proxy, retries, a test double. */
  fetch?: typeof fetch;
  /**
   * Credentials sent upstream with every request: a bearer token, basic, an API key, OAuth 2
   * client credentials (token fetched and cached), or the caller's own token where you allow it.
   */
  auth?: UpstreamAuth;
  /** Headers sent with every request (a User-Agent, an API version). */
  headers?: Readonly<Record<string, string>>;
  /** How long one upstream request may take, redirects included (default 30 000 ms). */
  timeoutMs?: number;
  /** The largest upstream answer read (default 10 MiB); a larger one is an error result. */
  maxResponseBytes?: number;
}

/** Checks the options once, at startup, and resolves their defaults. */
export function upstreamOf(options: UpstreamOptions): Upstream {
  let baseUrl: URL;
  try {
    baseUrl = new URL(String(options.baseUrl ?? ''));
  } catch {
    throw new OpenAPIError(
      'CONFLICTING_OPTIONS',
      '#/servers',
      `baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL. Fix: pass where the API is, e.g. { baseUrl: 'https://api.example.com/v1' } (the document's servers are not used on their own).`,
    );
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new OpenAPIError(
      'CONFLICTING_OPTIONS',
      '#/servers',
      `baseUrl must be http(s), not ${baseUrl.protocol}. Fix: pass the API's http(s) address.`,
    );
  }
  checkLimit('timeoutMs', options.timeoutMs, 1);
  checkLimit('maxResponseBytes', options.maxResponseBytes, 1);
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    baseUrl,
    fetch: fetcher,
    credentials: credentialsOf(options.auth, fetcher, options.timeoutMs ?? 30_000),
    headers: options.headers ?? {},
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
  };
}

/** A size or time option must be a whole number of at least `floor`. */
export function checkLimit(key: string, value: number | undefined, floor: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= floor)) {
    throw new OpenAPIError(
      'INVALID_LIMIT',
      '#',
      `${key} must be an integer of at least ${floor}, not ${String(value)}. Fix: pass a number like 30000.`,
    );
  }
}
