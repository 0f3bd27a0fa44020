// The one rule that names a member of a namespaced upstream (`weather` + `get_forecast` →
// `weather_get_forecast`). Kept in its own file so that it can become the same function core's
// `server.mount` uses.

/** The separator between a namespace and a member's own name (default `_`). */
export const DEFAULT_SEPARATOR = '_';

/**
 * The name a member gets under a namespace: `<namespace><separator><name>`, or the name alone
 * when there is no namespace.
 *
 * @example
 * ```ts
 * namespaced('weather', 'get_forecast'); // 'weather_get_forecast'
 * ```
 */
export function namespaced(
  namespace: string | undefined,
  name: string,
  separator = DEFAULT_SEPARATOR,
): string {
  return namespace ? `${namespace}${separator}${name}` : name;
}
