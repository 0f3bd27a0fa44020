import { parseArgs } from 'node:util';
import { NWS_API_BASE } from './nws-client.js';

/**
 * The NWS API base URL: `--base-url <url>`, else the NWS_BASE_URL environment variable, else
 * the public API. Throws with a usage message on anything else.
 */
export function baseUrlFrom(args: readonly string[], env: NodeJS.ProcessEnv = process.env): URL {
  const { values } = parseArgs({
    args: [...args],
    // `serveFromArgs` reads the transport flags; they are accepted here so that they parse.
    options: {
      'base-url': { type: 'string' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  const raw = values['base-url'] ?? env.NWS_BASE_URL ?? NWS_API_BASE;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new Error(`the NWS base URL must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  return url;
}
