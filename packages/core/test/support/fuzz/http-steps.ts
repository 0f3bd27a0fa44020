import fc from 'fast-check';
import { initialize, step, type Step } from './messages.ts';

/** One HTTP request of a fuzzed conversation; mostly well-formed, sometimes not at all. */
export interface HttpStep {
  readonly method: string;
  readonly path: string;
  readonly body: Step;
  readonly session: 'real' | 'none' | 'junk';
  readonly contentType: 'json' | 'none' | 'junk';
  readonly accept: 'both' | 'json' | 'none';
  readonly version: 'match' | 'legacy' | 'modern' | 'junk' | 'none';
  readonly mcpHeaders: 'derive' | 'none' | 'junk';
  readonly origin: 'none' | 'local' | 'evil';
  readonly host: 'local' | 'evil';
  /** Drop the connection as soon as the response starts (closing the stream is the cancel). */
  readonly abort: boolean;
}

const usually = <T>(common: T, ...rest: T[]) =>
  fc.oneof({ weight: 20 * rest.length, arbitrary: fc.constant(common) }, fc.constantFrom(...rest));

export function httpStep(modern: boolean): fc.Arbitrary<HttpStep> {
  return fc.record({
    method: usually('POST', 'GET', 'DELETE', 'PUT', 'OPTIONS'),
    path: usually('/mcp', '/sse', '/messages?sessionId=x', '/other'),
    body: step(modern),
    session: usually<HttpStep['session']>('real', 'none', 'junk'),
    contentType: usually<HttpStep['contentType']>('json', 'none', 'junk'),
    accept: usually<HttpStep['accept']>('both', 'json', 'none'),
    version: usually<HttpStep['version']>('match', 'legacy', 'modern', 'junk', 'none'),
    mcpHeaders: usually<HttpStep['mcpHeaders']>('derive', 'none', 'junk'),
    origin: usually<HttpStep['origin']>('none', 'local', 'evil'),
    host: usually<HttpStep['host']>('local', 'evil'),
    abort: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  });
}

/** A conversation over HTTP: legacy ones usually start with initialize (for a session). */
export const httpConversation = fc.boolean().chain((modern) =>
  fc.record({
    modern: fc.constant(modern),
    initialize: modern ? fc.constant(null) : fc.option(initialize, { freq: 8, nil: null }),
    steps: fc.array(httpStep(modern), { minLength: 1, maxLength: 8 }),
  }),
);

/** The `Mcp-Method` / `Mcp-Name` headers a 2026-07-28 body calls for (protocol.md §6.1). */
export function mcpHeadersOf(text: string | undefined): Record<string, string> {
  let message: { method?: unknown; params?: { name?: unknown; uri?: unknown } } | undefined;
  try {
    message = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof message !== 'object' || message === null || typeof message.method !== 'string')
    return {};
  const headers: Record<string, string> = { 'mcp-method': headerValue(message.method) };
  const name = message.params?.name ?? message.params?.uri;
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

function headerValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) && value.trim() === value
    ? value
    : `=?base64?${Buffer.from(value).toString('base64')}?=`;
}
