// The Petstore REST API served as MCP from its OpenAPI document: by default through the classes
// `mcp-fw openapi` generated into src/api (edited in src/api/pets.ts); with `--runtime`, by
// fromOpenAPI reading petstore.yaml at startup. stdio by default; `--http --port N` serves
// http://127.0.0.1:N/mcp. `--base-url URL` calls that Petstore API; without it, a small one
// (src/petstore-api.ts) starts on loopback as the backend.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serveFromArgs } from '@mcp-fw/core/serve';
import { startPetstoreApi } from './petstore-api.js';
import { runtimeServer } from './runtime.js';
import { generatedServer } from './server.js';

const SPEC = fileURLToPath(new URL('../petstore.yaml', import.meta.url));

let baseUrl: string | undefined;
let runtime = false;
try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    // `serveFromArgs` reads the transport flags; they are accepted here so that they parse.
    options: {
      'base-url': { type: 'string' },
      runtime: { type: 'boolean' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  baseUrl = values['base-url'];
  runtime = values.runtime === true;
} catch (error) {
  process.stderr.write(
    `petstore: ${(error as Error).message}\nusage: petstore [--runtime] [--base-url <url>] [--http [--port N] [--host H]]\n`,
  );
  process.exit(2);
}

const api = baseUrl === undefined ? await startPetstoreApi() : undefined;
const url = baseUrl ?? (api as { url: string }).url;
await serveFromArgs(runtime ? await runtimeServer(SPEC, url) : generatedServer(url));
