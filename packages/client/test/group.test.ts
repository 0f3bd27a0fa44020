import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectServers, type McpClientGroup } from '@mcp-fw/client';
import { serveHttp } from '@mcp-fw/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from './support/fixture-server.ts';

// An mcpServers configuration as Claude Desktop and Cursor write it, against real servers: the
// built calculator example and @modelcontextprotocol/server-everything over stdio, an mcp-fw
// server over HTTP, and two servers that are down.

const CALCULATOR = fileURLToPath(
  new URL('../../../examples/calculator/dist/main.js', import.meta.url),
);
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let http: Awaited<ReturnType<typeof serveHttp>>;
let group: McpClientGroup;
const warnings: string[] = [];

beforeAll(async () => {
  http = await serveHttp(fixtureServer(), { port: 0 });
  group = await connectServers(
    {
      mcpServers: {
        calc: { command: process.execPath, args: [CALCULATOR] },
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        desk: { url: http.url, headers: { 'X-Trace': 'group-test' } },
        crashing: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        nowhere: { url: 'http://127.0.0.1:1/mcp' },
        off: { command: 'no-such-program', disabled: true },
      },
    },
    { onWarning: (message) => warnings.push(message), probeTimeoutMs: 1000 },
  );
}, 30_000);
afterAll(async () => {
  await group?.close();
  await http?.close();
});

describe('an mcpServers configuration as one client group', () => {
  it('one server down does not break the others: the reachable ones connect, the rest are named', () => {
    expect([...group.clients.keys()].sort()).toEqual(['calc', 'desk', 'everything']);
    expect([...group.failures.keys()].sort()).toEqual(['crashing', 'nowhere']);
    expect(group.failures.get('crashing')?.message).toContain('exited with code 3');
    expect(warnings.some((w) => w.includes('server "nowhere" is left out'))).toBe(true);
  });

  it('tools are namespaced <server>_<tool>', async () => {
    const names = (await group.listTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'calc_add',
        'calc_divide',
        'everything_echo',
        'everything_get-sum',
        'desk_add',
      ]),
    );
    expect(names.some((name) => name.startsWith('crashing_'))).toBe(false);
    const echo = (await group.listTools()).find((tool) => tool.name === 'everything_echo');
    expect([echo?.server, echo?.serverToolName]).toEqual(['everything', 'echo']);
  });

  it('calls are routed to their server', async () => {
    const echo = await group.callTool('everything_echo', { message: 'hi' });
    expect(echo.content[0].text).toBe('Echo: hi');
    const product = await group.callTool('calc_multiply', { a: 6, b: 7 });
    expect(JSON.parse(product.content[0].text as string)).toMatchObject({ result: 42 });
    const sum = await group.callTool('desk_add', { a: 1, b: 2 });
    expect(sum.structuredContent).toMatchObject({ sum: 3 });
  });

  it('a call to a server that is down names the server and why', async () => {
    await expect(group.callTool('crashing_anything', {})).rejects.toThrow(
      /server "crashing" is not connected \(.*exited with code 3/,
    );
    await expect(group.callTool('elsewhere_tool', {})).rejects.toThrow(
      'names no server of the group',
    );
  });

  it('a configuration entry with neither command nor url fails at once, naming the server', async () => {
    await expect(
      connectServers({ mcpServers: { broken: { args: ['x'] } as never } }),
    ).rejects.toThrow('mcpServers["broken"] has neither "command"');
    await expect(connectServers({} as never)).rejects.toThrow('no "mcpServers" object');
  });
});

describe('a server of the group that dies while the others run', () => {
  it('one server down does not break the others: its tools drop out, calls to it name the exit', async () => {
    const said: string[] = [];
    // The calculator, which exits once the test writes its flag file.
    const flag = join(mkdtempSync(join(tmpdir(), 'mcp-fw-group-')), 'die');
    const mortal = `import { existsSync } from 'node:fs'; setInterval(() => existsSync(${JSON.stringify(flag)}) && process.exit(7), 20); await import(${JSON.stringify(CALCULATOR)});`;
    const pair = await connectServers(
      {
        mcpServers: {
          calc: { command: process.execPath, args: [CALCULATOR] },
          mortal: { command: process.execPath, args: ['--input-type=module', '-e', mortal] },
        },
      },
      { onWarning: (message) => said.push(message), probeTimeoutMs: 1000 },
    );
    try {
      expect([...pair.clients.keys()].sort()).toEqual(['calc', 'mortal']);
      writeFileSync(flag, '');
      await until(
        async () =>
          (await pair.callTool('mortal_add', { a: 1, b: 1 }).catch(() => 'down')) === 'down',
      );
      const names = (await pair.listTools()).map((tool) => tool.name);
      expect(names).toContain('calc_add');
      expect(names.some((name) => name.startsWith('mortal_'))).toBe(false);
      expect(said.some((w) => w.includes('server "mortal" is left out of the tool list'))).toBe(
        true,
      );
      await expect(pair.callTool('mortal_add', { a: 1, b: 1 })).rejects.toThrow(
        'exited with code 7',
      );
      const sum = await pair.callTool('calc_add', { a: 2, b: 2 });
      expect(JSON.parse(sum.content[0].text as string)).toMatchObject({ result: 4 });
    } finally {
      await pair.close();
    }
  });
});
