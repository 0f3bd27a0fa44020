import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initializeRequest } from '../../../test-support/frames.ts';
import { bundleServer } from '../src/bundle/bundle-server.ts';
import { cleanupAfterEach } from './support/cleanups.ts';
import { fixtureProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

// esbuild wraps a module that something require()s, and every ES module that module imports, in
// a lazy initialiser: `var init_x = __esm({ "<path>"() { …its top level… } })`.
const wrapped = (bundle: string, path: RegExp) =>
  [...bundle.matchAll(/__esm\(\{"([^"]+)"/g)].some((m) => path.test(m[1]!));

const LINES = [
  initializeRequest(),
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'shout', arguments: { text: 'hi' } },
  },
];

async function bundled(entry: string) {
  const project = fixtureProject('zod-bundle');
  cleanup(() => project.remove());
  const result = await bundleServer({ entry: project.path(entry), outDir: project.path('out') });
  const run = spawnSync(process.execPath, [result.launcherFile], {
    input: `${LINES.map((line) => JSON.stringify(line)).join('\n')}\n`,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const frames = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { bundle: readFileSync(result.bundleFile, 'utf8'), frames };
}

describe('mcp-fw build --bundle: what core requires lazily', () => {
  it('a zod server runs zod in place: zod/v4/core, which core requires lazily, is not wrapped in a lazy initialiser', async () => {
    const { bundle, frames } = await bundled('server.js');
    expect(wrapped(bundle, /zod\/v4\/(core|locales)\//)).toBe(false);
    // What no import reaches is in lazy files (bundle-lazy-file.test.ts), required on first use:
    // zod 3's converter, and Ajv (CommonJS).
    expect(wrapped(bundle, /zod-to-json-schema\//)).toBe(false);
    expect(bundle).toContain('require("./server.lazy/zod-to-json-schema.cjs")');
    expect(bundle).not.toMatch(/require_ajv\s*=/);
    expect(bundle).toContain('require("./server.lazy/ajv.cjs")');
    // The zod/mini tool's JSON Schema comes from zod/v4/core's converter, referenced in place.
    const tools = frames.find((frame) => frame.id === 2).result.tools;
    expect(tools.find((tool: { name: string }) => tool.name === 'shout').inputSchema).toMatchObject(
      {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    );
    expect(frames.find((frame) => frame.id === 3).result.content).toEqual([
      { type: 'text', text: 'HI' },
    ]);
  });

  it('a server without zod keeps zod/v4/core out of its bundle, in a lazy file its start does not read', async () => {
    const { bundle, frames } = await bundled('raw.js');
    expect(wrapped(bundle, /zod\/v4\/core\//)).toBe(false);
    expect(bundle).toContain('require("./raw.lazy/zod.cjs")["zod/v4/core/index.js"]()');
    expect(
      frames.find((frame) => frame.id === 2).result.tools.map((t: { name: string }) => t.name),
    ).toEqual(['square']);
  });
});
