// What a README fragment (a block marked `<!-- doc-test: fragment -->`) may use without
// declaring it: the things the text around it introduced. Fragments are type-checked with this
// in scope; whole programs never see it.

/** Global declarations, written as `prelude.d.ts` beside the fragments. */
export const FRAGMENT_PRELUDE = `import type { Context, McpFwServer } from '@mcp-fw/core';

declare global {
  /** The server the README built before the fragment. */
  const server: McpFwServer;
  /** The context of the handler the fragment is a piece of. */
  const ctx: Context;
  const z: typeof import('zod').z;
  const createServer: typeof import('@mcp-fw/core').createServer;
  /** A provider class that takes a dependency (the CLI README's factory example). */
  class Weather {
    constructor(baseUrl: URL);
  }
  const Deno: {
    serve(handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>): unknown;
  };
  const Bun: {
    serve(options: {
      port?: number;
      fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Response | Promise<Response>;
    }): unknown;
  };
}
`;

/** \`src/server.ts\` beside the fragments, for those that import the server as an entry file does. */
export const FRAGMENT_SERVER_MODULE = `import { createServer, Tool } from '@mcp-fw/core';
import { z } from 'zod';

class Calculator {
  @Tool({ description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return String(a + b);
  }
}

export const server = createServer({ name: 'calculator', version: '1.0.0', providers: [Calculator] });
`;
