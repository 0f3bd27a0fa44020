// The Petstore REST API served as MCP tools by @mcp-fw/openapi, from its OpenAPI document.
// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp. `--base-url URL` calls that
// Petstore API; without it, a small one (src/petstore-api.ts) starts on loopback as the backend.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serveFromArgs } from '@mcp-fw/core/serve';
import { fromOpenAPI } from '@mcp-fw/openapi';
import { startPetstoreApi } from './petstore-api.js';

const SPEC = fileURLToPath(new URL('../petstore.yaml', import.meta.url));

let baseUrl: string | undefined;
try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    // `serveFromArgs` reads the transport flags; they are accepted here so that they parse.
    options: {
      'base-url': { type: 'string' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  baseUrl = values['base-url'];
} catch (error) {
  process.stderr.write(
    `petstore: ${(error as Error).message}\nusage: petstore [--base-url <url>] [--http [--port N] [--host H]]\n`,
  );
  process.exit(2);
}

const api = baseUrl === undefined ? await startPetstoreApi() : undefined;
const server = await fromOpenAPI(SPEC, {
  baseUrl: baseUrl ?? (api as { url: string }).url,
  // One pet by id is also a resource template (openapi://get_pet/{id}) a client can read on its
  // own; listing (it takes filters), adding and deleting stay tools a model calls.
  routeMaps: [{ methods: ['GET'], pattern: /\{/, type: 'template' }],
  names: {
    'find pet by id': 'get_pet',
    findPets: 'list_pets',
    addPet: 'add_pet',
    deletePet: 'delete_pet',
  },
  server: { name: 'petstore', version: '0.1.0' },
});
await serveFromArgs(server);
