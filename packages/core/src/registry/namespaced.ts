import { StartupError } from './errors.js';

/** The characters (and length) a tool or prompt name may have: MCP's tool-name rule. */
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The name a member of a mounted (or proxied) server is served under: `namespace`, the
 * separator, then its own name — `weather_get_forecast` for `get_forecast` mounted as
 * `weather`. One rule for tools and prompts, shared by `server.mount` and the proxy, so a
 * member reads the same whichever way it arrived. Throws a {@link StartupError} when the
 * namespace or separator would make a name clients cannot call.
 *
 * @example
 * ```ts
 * namespaced('get_forecast', 'weather'); // 'weather_get_forecast'
 * namespaced('get_forecast', 'weather', '.'); // 'weather.get_forecast'
 * ```
 */
export function namespaced(name: string, namespace: string, separator = '_'): string {
  checkNamespace(namespace, separator);
  const full = `${namespace}${separator}${name}`;
  if (!NAME.test(full))
    throw new StartupError(
      'INVALID_NAME',
      `"${name}" under the namespace "${namespace}" would be named "${full}", which is not a valid tool or prompt name ` +
        "(1–128 characters of A-Z, a-z, 0-9, '_', '-' and '.'). Fix: choose a shorter namespace, or rename the member.",
    );
  return full;
}

/**
 * Checks a namespace and separator once, when a server is mounted: both must be made of the
 * characters a tool name may hold, so every name built from them is callable.
 *
 * @example
 * ```ts
 * checkNamespace('weather', '_'); // fine
 * checkNamespace('my weather', '_'); // throws StartupError INVALID_NAME
 * ```
 */
export function checkNamespace(namespace: string, separator = '_'): void {
  if (typeof namespace !== 'string' || !NAME.test(namespace))
    throw new StartupError(
      'INVALID_NAME',
      `Invalid namespace ${JSON.stringify(namespace)}: a namespace is 1–128 characters of A-Z, a-z, 0-9, '_', '-' and '.'. ` +
        "Fix: mount(child, { namespace: 'weather' }).",
    );
  if (typeof separator !== 'string' || (separator !== '' && !NAME.test(separator)))
    throw new StartupError(
      'INVALID_NAME',
      `Invalid separator ${JSON.stringify(separator)}: it must be made of A-Z, a-z, 0-9, '_', '-' and '.' (default '_'). ` +
        "Fix: mount(child, { namespace: 'weather', separator: '.' }).",
    );
}
