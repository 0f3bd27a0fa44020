import { fileURLToPath } from 'node:url';

const script = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The HTTP servers measured, each a script and its arguments. */
export const HTTP_SERVERS = {
  bare: { script: script('./http-bare-server.js'), args: [] },
  'mcp-fw': { script: script('./http-mcp-fw-server.js'), args: [] },
  // Like-for-like with mcp-fw, which answers a plain call with JSON.
  'sdk-v2': { script: script('./http-sdk-v2-server.js'), args: ['--json'] },
  // The SDK's default: an SSE stream per POST.
  'sdk-v2-sse': { script: script('./http-sdk-v2-server.js'), args: [] },
} as const;

export type HttpServerName = keyof typeof HTTP_SERVERS;
export const HTTP_SERVER_NAMES = Object.keys(HTTP_SERVERS) as HttpServerName[];
