import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';
import { eventually, until } from './support/until.ts';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Session {
  project: TempProject;
  client: Client;
  changes: () => number;
  logs: string[];
  updates: string[];
  stderr: () => string;
}

/** SDK 1.x (2025-11-25) on `mcp-fw dev` over stdio, on a copy of the steps fixture. */
async function devSession(prepare?: (project: TempProject) => void): Promise<Session> {
  const project = fixtureProject('steps');
  cleanups.push(() => project.remove());
  prepare?.(project);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'dev', 'src/server.ts'],
    cwd: project.dir,
    env: cliEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-fw-dev-state-test', version: '1.0.0' });
  let changes = 0;
  const logs: string[] = [];
  const updates: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void logs.push(String(n.params.data)),
  );
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (n) => void updates.push(n.params.uri),
  );
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { project, client, changes: () => changes, logs, updates, stderr: () => stderr };
}

const text = (result: any) => result.content.map((c: any) => c.text).join('');
const described = (source: string, description: string) =>
  source.replace(
    "'Counts to n, reporting each step as progress and a log message'",
    `'${description}'`,
  );

describe('mcp-fw dev session state', () => {
  it('replays the log level and resource subscriptions into the reloaded server', async () => {
    const { project, client, changes, logs, updates } = await devSession();
    await client.setLoggingLevel('warning');
    await client.subscribeResource({ uri: 'steps://last' });
    project.write(
      'src/server.ts',
      described(project.read('src/server.ts'), 'Counts to n (edited)'),
    );
    await until(() => changes() === 1, 'tools/list_changed arrives');
    expect(text(await client.callTool({ name: 'count', arguments: { n: 2 } }))).toBe(
      'counted to 2',
    );
    await until(() => updates.length === 1, 'the subscribed resource is reported updated');
    expect(updates).toEqual(['steps://last']);
    // Info messages stay below the session's level: the new server was told it.
    expect(logs).toEqual([]);
  });

  it('keeps the session through a startup error, naming it, and recovers on the next save', async () => {
    const { project, client, logs } = await devSession();
    const good = project.read('src/server.ts');
    project.write('src/server.ts', good.replace('providers: [Steps]', 'providers: [Steps, Steps]'));
    const failure = await eventually(
      () =>
        client.callTool({ name: 'count', arguments: { n: 1 } }).then(
          () => undefined,
          (error: Error) => error,
        ),
      (error) => error !== undefined,
      'calls fail with the startup error',
    );
    expect(failure!.message).toMatch(
      /^MCP error -32603: mcp-fw dev cannot serve tools\/call: src\/server\.ts failed to load: StartupError: Duplicate tool name "count"/,
    );
    expect(logs.some((log) => log.includes('StartupError: Duplicate tool name "count"'))).toBe(
      true,
    );
    project.write('src/server.ts', good);
    const recovered = await eventually(
      () => client.callTool({ name: 'count', arguments: { n: 1 } }).then(text, () => undefined),
      (value) => value !== undefined,
      'calls work again',
    );
    expect(recovered).toBe('counted to 1');
  });

  it('starts with a broken entry, answers with the error, and serves once it is fixed', async () => {
    let good = '';
    const { project, client, changes, stderr } = await devSession((p) => {
      good = p.read('src/server.ts');
      p.write('src/server.ts', `${good}\nexport const broken = ;\n`);
    });
    expect(client.getServerVersion()).toEqual({ name: 'mcp-fw-dev', version: '0.0.0' });
    await expect(client.listTools()).rejects.toThrow(
      /mcp-fw dev cannot serve tools\/list: src\/server\.ts does not compile: src\/server\.ts\(\d+,23\): error TS1109: Expression expected\./,
    );
    expect(stderr()).toContain('error TS1109: Expression expected.');
    project.write('src/server.ts', good);
    await until(() => changes() === 1, 'tools/list_changed arrives once the server starts');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['count']);
    expect(text(await client.callTool({ name: 'count', arguments: { n: 1 } }))).toBe(
      'counted to 1',
    );
  });

  it('survives the server process exiting, and recovers on the next save', async () => {
    const { project, client } = await devSession();
    const good = project.read('src/server.ts');
    const crashing = good
      .replace('last = n;', 'last = n;\n    if (n === 0) process.exit(3);')
      .replace('`counted to ${n}`', '`counted to ${n} (v2)`');
    project.write('src/server.ts', crashing);
    await eventually(
      () => client.callTool({ name: 'count', arguments: { n: 1 } }).then(text, () => ''),
      (v) => v === 'counted to 1 (v2)',
      'the edit is served',
    );
    await expect(client.callTool({ name: 'count', arguments: { n: 0 } })).rejects.toThrow(
      'MCP error -32603: mcp-fw dev: tools/call was not answered: the server process exited (exit code 3). Call it again.',
    );
    await expect(client.callTool({ name: 'count', arguments: { n: 1 } })).rejects.toThrow(
      /mcp-fw dev cannot serve tools\/call: the server process exited \(exit code 3\)/,
    );
    project.write('src/server.ts', good);
    const recovered = await eventually(
      () => client.callTool({ name: 'count', arguments: { n: 1 } }).then(text, () => undefined),
      (value) => value !== undefined,
      'calls work again',
    );
    expect(recovered).toBe('counted to 1');
  });
});
