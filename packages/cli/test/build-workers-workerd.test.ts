// `mcp-fw build --target workers`: the workers template (and a project that only exports its
// server) built by the CLI, and the bundle it wrote served as it is by real workerd, driven by
// both official clients: 2026-07-28 in the Worker, a 2025-11-25 session in its Durable Object.
// Two builds and two workerd runs: a CI step of its own (vitest.separate.ts); the refusals are
// in build-workers.test.ts, in npm test.
import { readFileSync, rmSync } from 'node:fs';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../core/test/support/workerd.ts';
import { cleanupAfterEach } from './support/cleanups.ts';
import { runCli } from './support/cli-process.ts';
import { type TempProject, templateProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

function workersTemplate(): TempProject {
  const project = templateProject('workers');
  cleanup(() => project.remove());
  return project;
}

/** Serves the built bundle in workerd and checks both eras with the official clients. */
async function servesBothEras(project: TempProject): Promise<void> {
  const worker = await startWorker({
    module: project.path('dist/worker.bundle.mjs'),
    durableObjects: [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }],
  });
  cleanup(() => worker.stop());
  const modern = new ClientV2(
    { name: 'build-workers-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await modern.connect(new StreamableV2(new URL('/mcp', worker.origin)));
  cleanup(() => modern.close());
  expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  expect((await modern.listTools()).tools.map((t) => t.name)).toEqual(['to_fahrenheit']);
  expect(
    await modern.callTool({ name: 'to_fahrenheit', arguments: { celsius: 100 } }),
  ).toMatchObject({ content: [{ type: 'text', text: '100 °C is 212 °F' }] });

  const legacy = new ClientV1({ name: 'build-workers-test', version: '1.0.0' });
  const transport = new StreamableV1(new URL('/mcp', worker.origin));
  await legacy.connect(transport);
  cleanup(() => legacy.close());
  expect(transport.protocolVersion).toBe('2025-11-25');
  // The session id starts with the id of the Durable Object that holds the session.
  expect(transport.sessionId).toMatch(/^[0-9a-f]{64}\./);
  expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(['to_fahrenheit']);
  expect(
    await legacy.callTool({ name: 'to_fahrenheit', arguments: { celsius: 37 } }),
  ).toMatchObject({ content: [{ type: 'text', text: '37 °C is 99 °F' }] });
}

describe('mcp-fw build --target workers in workerd', () => {
  it('bundles the workers template into a module worker that workerd serves to both official clients (2026-07-28, and 2025-11-25 through the Durable Object)', async () => {
    const project = workersTemplate();
    const run = await runCli(['build', '--target', 'workers'], project.dir);
    expect(run.stderr).toContain('Bundled dist/worker.js into dist/worker.bundle.mjs');
    expect(run.code).toBe(0);
    // No wrangler config was there: one is written for the bundle, with the sessions binding.
    const config = project.read('wrangler.jsonc');
    expect(config).toContain('"main": "dist/worker.bundle.mjs"');
    expect(config).toContain('"no_bundle": true');
    expect(config).toContain('{ "name": "MCP_SESSIONS", "class_name": "McpSessions" }');
    expect(run.stderr).toContain('Deploy it with: npx wrangler deploy ');
    // Node-only code stays out: nothing in the bundle imports a Node built-in.
    expect(readFileSync(project.path('dist/worker.bundle.mjs'), 'utf8')).not.toMatch(
      /from\s*["']node:/,
    );
    await servesBothEras(project);
  }, 60_000);

  it('wraps a project that only exports its server in mcpWorker, with the Durable Object class of legacy sessions', async () => {
    const project = workersTemplate();
    // src/server.ts builds its server at module scope, which Workers refuse there: the bundle
    // must import it on the first request instead.
    rmSync(project.path('src/worker.ts'));
    const run = await runCli(['build', '--target', 'workers'], project.dir);
    expect(run.stderr).toContain('Bundled dist/server.js into dist/worker.bundle.mjs');
    expect(run.stderr).toContain('serving the exported server');
    expect(run.code).toBe(0);
    await servesBothEras(project);
  }, 60_000);
});
