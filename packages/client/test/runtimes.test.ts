import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFixture,
  type FixtureProcess,
} from '../../../examples/conformance/test/support/fixture-process.ts';

// @mcp-fw/client on Bun and on Deno (the root devDependencies' binaries), against a Node
// server: the conformance example's build, over Streamable HTTP in both eras and over stdio
// (the client under Bun or Deno starts `node dist/main.js`). The client script is
// fixtures/runtime-client.mjs on the built @mcp-fw/client, as a user of either runtime runs it.

const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url));
const CLIENT = fileURLToPath(new URL('./fixtures/runtime-client.mjs', import.meta.url));
const SERVER = fileURLToPath(
  new URL('../../../examples/conformance/dist/main.js', import.meta.url),
);

const COMMANDS = {
  bun: [`${BIN}bun`, [CLIENT]],
  deno: [
    `${BIN}deno`,
    ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-run', CLIENT],
  ],
} as const;

/** Runs the client script under `runtime`; what it printed. */
function runClient(
  runtime: keyof typeof COMMANDS,
  args: string[],
): Promise<Record<string, unknown>> {
  const [command, prefix] = COMMANDS[runtime];
  return new Promise((resolve, reject) => {
    execFile(command, [...prefix, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error)
        return reject(new Error(`${runtime} ${args.join(' ')}: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
    });
  });
}

const CALLED = { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] };

let server: FixtureProcess | undefined;
beforeAll(async () => {
  server = await startFixture('node');
}, 30_000);
afterAll(() => server?.stop());

describe.each(['bun', 'deno'] as const)('@mcp-fw/client on %s', (runtime) => {
  it(`connects from ${runtime} to a Node server over Streamable HTTP, at 2026-07-28 and 2025-11-25`, async () => {
    const url = String(server!.url);
    const [modern, legacy] = await Promise.all([
      runClient(runtime, ['http', url]),
      runClient(runtime, ['http', url, '2025-11-25']),
    ]);
    expect(modern).toMatchObject({
      runtime,
      transport: 'streamable-http',
      era: 'modern',
      protocolVersion: '2026-07-28',
      hasTool: true,
      result: CALLED,
    });
    expect(legacy).toMatchObject({
      runtime,
      transport: 'streamable-http',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      hasTool: true,
      result: CALLED,
    });
  }, 120_000);

  it(`connects from ${runtime} to a Node server over stdio (the client starts it)`, async () => {
    // The server speaks every revision over stdio: server/discover answers, so 2026-07-28.
    expect(await runClient(runtime, ['stdio', process.execPath, SERVER])).toMatchObject({
      runtime,
      transport: 'stdio',
      era: 'modern',
      protocolVersion: '2026-07-28',
      hasTool: true,
      result: CALLED,
    });
  }, 120_000);
});
