// GitHub's REST description (`@octokit/openapi`, api.github.com.json, 13 MB, ~1,200 operations)
// served by `fromOpenAPI`: how long loading takes (read, lint, bundle, schemas, server), the
// memory it holds, and what `tools/list` costs a client. A benchmark, not a test: it fails only
// if the document does not load or the tools do not match its operations.
// Usage: `npx tsc -b && node bench/dist/openapi-github.js`; OPENAPI_MAX_OUTPUT sets
// maxOutputSchemaBytes (default: fromOpenAPI's own, 16 KiB; a large value declares every one).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectTestClient } from '@mcp-fw/core/testing';
import { fromOpenAPI } from '@mcp-fw/openapi';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'packages/openapi/package.json'));
const SPEC = require.resolve('@octokit/openapi/generated/api.github.com.json');
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const maxOutput = process.env.OPENAPI_MAX_OUTPUT
  ? Number(process.env.OPENAPI_MAX_OUTPUT)
  : undefined;
const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, object> };
const operations = Object.values(doc.paths).flatMap((item) =>
  Object.keys(item).filter((k) => METHODS.has(k)),
).length;

const rssBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const server = await fromOpenAPI(SPEC, {
  baseUrl: 'https://api.github.com',
  ...(maxOutput !== undefined ? { maxOutputSchemaBytes: maxOutput } : {}),
});
const loadMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
globalThis.gc?.();
const memory = process.memoryUsage();

const client = await connectTestClient(server);
const listStarted = performance.now();
const { tools } = await client.listTools();
const listMs = performance.now() - listStarted;
await client.close();
if (tools.length !== operations) {
  console.error(`expected ${operations} tools (one per operation), got ${tools.length}`);
  process.exit(1);
}
const bytes = Buffer.byteLength(JSON.stringify({ tools }));
const withOutput = tools.filter((t) => t.outputSchema !== undefined).length;

const report = {
  spec: 'api.github.com.json (@octokit/openapi)',
  specBytes: readFileSync(SPEC).byteLength,
  operations,
  tools: tools.length,
  toolsWithOutputSchema: withOutput,
  maxOutputSchemaBytes: maxOutput ?? 'default (16384)',
  loadMs: Math.round(loadMs),
  loadCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  rssMiB: Math.round(memory.rss / 2 ** 20),
  rssGrowthMiB: Math.round((memory.rss - rssBefore) / 2 ** 20),
  heapUsedMiB: Math.round(memory.heapUsed / 2 ** 20),
  toolsListBytes: bytes,
  toolsListMs: Math.round(listMs),
  loadavg1m: Number(loadavg()[0]?.toFixed(2)),
  node: process.version,
};
console.log(JSON.stringify(report, null, 2));
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/results/openapi-github.json'),
  `${JSON.stringify(report, null, 2)}\n`,
);
