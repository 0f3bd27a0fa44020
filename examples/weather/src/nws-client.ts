import { UserError } from '@mcp-fw/core';
import type { Problem } from './nws-types.js';

/** The public National Weather Service API. */
export const NWS_API_BASE = 'https://api.weather.gov';
/** NWS asks every client to identify itself; requests without a User-Agent are refused. */
export const USER_AGENT = 'mcp-fw-weather/0.1.0';

const TIMEOUT_MS = 15_000;

/** The API could not be reached or answered with an error; the message is meant for the user. */
export class NwsError extends UserError {
  override name = 'NwsError';
  constructor(
    message: string,
    /** The HTTP status, when the API answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * A minimal client of the NWS API: GETs GeoJSON with the headers NWS asks for and turns every
 * failure (unreachable, an error status, a body that is not JSON) into an {@link NwsError}.
 *
 * @example
 * ```ts
 * const nws = new NwsClient(new URL('https://api.weather.gov'));
 * const alerts = await nws.get<AlertCollection>('/alerts/active/area/CA');
 * ```
 */
export class NwsClient {
  constructor(readonly baseUrl: URL) {}

  /**
   * GETs `target`: a path below the base URL, or an absolute URL the API itself returned (such
   * as a grid point's `forecast` link), which must stay on the base URL's origin.
   */
  async get<T>(target: string, signal?: AbortSignal): Promise<T> {
    const url = this.#resolve(target);
    const signals = signal
      ? [signal, AbortSignal.timeout(TIMEOUT_MS)]
      : [AbortSignal.timeout(TIMEOUT_MS)];
    let response: Response;
    let body: string;
    try {
      response = await fetch(url, {
        headers: { 'User-Agent': USER_AGENT, Accept: 'application/geo+json' },
        signal: AbortSignal.any(signals),
      });
      body = await response.text();
    } catch (error) {
      const cause =
        (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new NwsError(
        `Could not reach the National Weather Service API at ${url.origin}: ${cause}`,
      );
    }
    if (!response.ok) {
      const detail = problemDetail(body);
      throw new NwsError(
        `The National Weather Service API answered ${response.status} ${response.statusText} for ` +
          `GET ${url.pathname}${detail ? `: ${detail}` : ''}`,
        response.status,
      );
    }
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new NwsError(
        `The National Weather Service API answered GET ${url.pathname} with a body that is not JSON`,
      );
    }
  }

  #resolve(target: string): URL {
    if (/^https?:\/\//i.test(target)) {
      const url = new URL(target);
      // Links come from the API's answers; following one elsewhere would let a response aim us
      // at any host.
      if (url.origin !== this.baseUrl.origin) {
        throw new NwsError(
          `The National Weather Service API linked to ${url.origin}, outside ${this.baseUrl.origin}; not followed`,
        );
      }
      return url;
    }
    return new URL(this.baseUrl.pathname.replace(/\/$/, '') + target, this.baseUrl);
  }
}

function problemDetail(body: string): string | undefined {
  try {
    const problem = JSON.parse(body) as Problem;
    return problem.detail ?? problem.title;
  } catch {
    return undefined;
  }
}
