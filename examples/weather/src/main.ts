// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { baseUrlFrom } from './base-url.js';
import createWeatherServer from './server.js';

let baseUrl: URL;
try {
  baseUrl = baseUrlFrom(process.argv.slice(2));
} catch (error) {
  const usage = 'usage: weather [--base-url <url>] [--http [--port N] [--host H]]';
  process.stderr.write(`weather: ${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
await serveFromArgs(createWeatherServer(baseUrl));
