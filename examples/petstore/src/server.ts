import { createServer, type McpFwServer } from '@mcp-fw/core';
import { ApiClient } from './api/client.gen.js';
import { apiProviders } from './api/providers.gen.js';
import { schemas } from './schemas.gen.js';

/**
 * The generated classes (src/api, written by `npm run openapi`) served: the tools of
 * src/api/pets.gen.ts as curated in src/api/pets.ts, their schemas read from the types and JSDoc
 * by `npm run schemas` (src/schemas.gen.ts).
 */
export function generatedServer(baseUrl: string): McpFwServer {
  return createServer({
    name: 'petstore',
    version: '0.1.0',
    providers: apiProviders(new ApiClient({ baseUrl })),
    schemas,
  });
}
