import type { HeaderMap } from './exchange.js';

/**
 * A new header map: `base`'s headers, then `extra`'s, then `name: value` (each overriding what
 * came before).
 *
 * Built by assignment onto `{}`, never as `{ ...base, ...extra, [name]: value }`: on Node 20's V8
 * a property added after an object spread gets a hidden class of its own for every object (the
 * spread's map keeps no transitions), and hidden classes live in the old generation. One
 * answer's headers left a new map there (and node:http's `for…in` over them an enum cache), so
 * the old generation grew with every call and paid incremental marking for it. Assignment onto
 * `{}` follows V8's shared transitions: the same headers give the same map every time.
 */
export function headerMap(
  base: Readonly<HeaderMap>,
  extra?: Readonly<HeaderMap>,
  name?: string,
  value?: string,
): HeaderMap {
  const out: HeaderMap = {};
  // Header maps are plain object literals: `for…in` sees only their own headers.
  for (const key in base) out[key] = base[key]!;
  if (extra) for (const key in extra) out[key] = extra[key]!;
  if (name !== undefined) out[name] = value!;
  return out;
}
