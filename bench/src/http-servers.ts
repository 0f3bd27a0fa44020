import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * `BENCH_HTTP_BASE=<checkout>`: that checkout's built bench server (another commit, built in a
 * scratch copy, see "In process" in bench/README.md) joins as `base-mcp-fw` and
 * `base-mcp-fw-2026`, measured in the same interleaved rounds: a change's before and after in
 * one run, each against the same floor.
 */
const base = process.env.BENCH_HTTP_BASE;
const baseScript = base
  ? resolve(base, 'bench/dist/http-mcp-fw-server.js')
  : script('./http-mcp-fw-server.js');

/**
 * The HTTP subjects measured, each a server script, its arguments and the era of its calls:
 * `legacy` calls run in one 2025-11-25 session per connection, `modern` ones are stateless
 * 2026-07-28 calls (envelope in `_meta`, mirrored in headers) on the same server.
 */
export const HTTP_SERVERS = {
  bare: { script: script('./http-bare-server.js'), args: [], era: 'legacy' },
  'mcp-fw': { script: script('./http-mcp-fw-server.js'), args: [], era: 'legacy' },
  'mcp-fw-2026': { script: script('./http-mcp-fw-server.js'), args: [], era: 'modern' },
  // As mcp-fw, an OAuth protected resource: every request carries a JWT checked against cached keys.
  'mcp-fw-jwt': { script: script('./http-mcp-fw-server.js'), args: ['--jwt'], era: 'legacy' },
  // Like-for-like with mcp-fw, which answers a plain call with JSON.
  'sdk-v2': { script: script('./http-sdk-v2-server.js'), args: ['--json'], era: 'legacy' },
  // The SDK's default: an SSE stream per POST.
  'sdk-v2-sse': { script: script('./http-sdk-v2-server.js'), args: [], era: 'legacy' },
  // punkpeye's fastmcp, sessionful with JSON answers (`src/http-fastmcp-server.ts`).
  fastmcp: { script: script('./http-fastmcp-server.js'), args: [], era: 'legacy' },
  'base-mcp-fw': { script: baseScript, args: [], era: 'legacy' },
  'base-mcp-fw-2026': { script: baseScript, args: [], era: 'modern' },
} as const;

export type HttpServerName = keyof typeof HTTP_SERVERS;
/** Every subject; the `base-` ones only when `BENCH_HTTP_BASE` names a checkout. */
export const HTTP_SERVER_NAMES = (Object.keys(HTTP_SERVERS) as HttpServerName[]).filter(
  (name) => base !== undefined || !name.startsWith('base-'),
);
