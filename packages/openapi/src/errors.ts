import { StartupError, type StartupErrorCode } from '@mcp-fw/core';

/**
 * A problem in the OpenAPI document or in the options of `fromOpenAPI`, found before anything is
 * served. It is a core `StartupError` (so code that catches those catches it), and it carries
 * the JSON pointer of the part of the document at fault; the message names that pointer and
 * the fix.
 *
 * @example
 * ```ts
 * try {
 *   await fromOpenAPI('./api.yaml', { baseUrl: 'https://api.example.com' });
 * } catch (error) {
 *   if (error instanceof OpenAPIError) console.error(error.pointer, error.message);
 * }
 * ```
 */
export class OpenAPIError extends StartupError {
  override name = 'OpenAPIError';
  constructor(
    code: StartupErrorCode,
    /** Where in the document the problem is, as a JSON pointer fragment (`#/paths/~1pets/get`). */
    readonly pointer: string,
    message: string,
  ) {
    super(code, `${pointer}: ${message}`);
  }
}

/** `#/paths/~1pets/{id}/get` from its segments (RFC 6901 escaping). */
export function pointerOf(...segments: readonly (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}
