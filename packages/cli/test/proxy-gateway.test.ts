import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@mcp-fw/client';
import { createServer, Tool, type McpFwServer } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { cleanupAfterEach } from './support/cleanups.ts';
import { spawnCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';

// `mcp-fw proxy`: the gateway in front of upstreams from an mcpServers file, over stdio and over
// HTTP, namespaced, reloading the file, with each upstream's state on /healthz.

const cleanup = cleanupAfterEach();
const quiet = { error() {}, warn() {} };

function named(name: string): McpFwServer {
  class Echo {
    @Tool({ description: `Echoes, from ${name}`, input: z.object({ text: z.string() }) })
    echo({ text }: { text: string }) {
      return `${name}: ${text}`;
    }
  }
  return createServer({ name, version: '1.0.0', providers: [Echo], logger: quiet });
}

async function upstream(name: string): Promise<HttpServerHandle> {
  const handle = await serveHttp(named(name), { port: 0 });
  cleanup(() => handle.close());
  return handle;
}

function configFile(servers: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-proxy-'));
  cleanup(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

describe('mcp-fw proxy', () => {
  it('serves every upstream of an mcpServers file over stdio, namespaced as <name>_<tool>', async () => {
    const alpha = await upstream('alpha');
    const beta = await upstream('beta');
    const file = configFile({ alpha: { url: alpha.url }, beta: { url: beta.url } });
    const client = await connect({ command: process.execPath, args: [BIN, 'proxy', file] });
    cleanup(() => client.close());
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual([
      'alpha_echo',
      'beta_echo',
    ]);
    const answer = await client.callTool('beta_echo', { text: 'hi' });
    expect(answer.content[0].text).toBe('beta: hi');
  });

  it('over HTTP, /healthz reports each upstream, and the file is reloaded on change', async () => {
    const alpha = await upstream('alpha');
    const beta = await upstream('beta');
    const file = configFile({ alpha: { url: alpha.url }, beta: { url: beta.url } });
    const run = spawnCli(['proxy', file, '--http', '--port', '0'], process.cwd());
    cleanup(async () => {
      run.child.kill('SIGTERM');
      await run.exited;
    });
    await vi.waitFor(() => expect(run.stderr()).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/mcp/), {
      timeout: 15_000,
    });
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(run.stderr())![1];
    const health = async () => {
      const response = await fetch(url.replace(/\/mcp$/, '/healthz'));
      return {
        status: response.status,
        body: (await response.json()) as { upstreams: { name: string; state: string }[] },
      };
    };
    expect(await health()).toMatchObject({
      status: 200,
      body: {
        status: 'ok',
        upstreams: [
          { name: 'alpha', state: 'up' },
          { name: 'beta', state: 'up' },
        ],
      },
    });
    const client = await connect(url);
    cleanup(() => client.close());
    expect((await client.callTool('alpha_echo', { text: 'x' })).content[0].text).toBe('alpha: x');

    // beta goes away from the file, a down gamma comes in
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { alpha: { url: alpha.url }, gamma: { url: 'http://127.0.0.1:1/mcp' } },
      }),
    );
    await vi.waitFor(
      async () => {
        const { status, body } = await health();
        expect(status).toBe(503);
        expect(
          body.upstreams.map((u: { name: string; state: string }) => `${u.name} ${u.state}`),
        ).toEqual(['alpha up', 'gamma down']);
      },
      { timeout: 10_000 },
    );
    expect((await client.listTools()).map((t) => t.name)).toEqual(['alpha_echo']);
    const refused = await client.callTool('beta_echo', { text: 'x' }).then(
      (r) => r.content[0].text,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/Unknown tool: beta_echo.*Upstream "gamma".*is down/);
  });

  it('a transform in the gateway file of a tool the upstream does not have stops mcp-fw proxy naming the file, the upstream and the tool', async () => {
    const alpha = await upstream('alpha');
    const file = configFile({ alpha: { url: alpha.url, tools: { ecko: { name: 'say' } } } });
    const run = await spawnCli(['proxy', file], process.cwd()).exited;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: upstream "alpha", tool "ecko"`);
    expect(run.stderr).toContain('no tool of that name is served (tools: alpha_echo)');
    expect(run.stderr).not.toContain('a bug in mcp-fw');
  });

  it('a malformed tools entry in the gateway file is refused at load, naming the upstream, the argument and the fix', async () => {
    const file = configFile({
      alpha: {
        url: 'http://127.0.0.1:9/mcp',
        tools: { echo: { args: { text: { hidden: true } } } },
      },
    });
    const run = await spawnCli(['proxy', file], process.cwd()).exited;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'upstream "alpha": the tool "echo", argument "text" has an unknown key "hidden"',
    );
    expect(run.stderr).toContain('an argument takes name, description, hide, value');
  });
});
