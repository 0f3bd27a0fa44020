import { createServer as createHttpServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { serveHttp } from '@mcp-fw/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';
import { createConformanceServer } from '../../../examples/conformance/src/server.ts';
import { runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';

// `mcp-fw call` and `inspect` against running servers, through @mcp-fw/client: by URL (the
// calculator and conformance examples served here, one behind a gate that wants a header) and
// by command line (@modelcontextprotocol/server-everything from npm, over stdio).

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const everything = `"${process.execPath}" ${EVERYTHING} stdio`;

let calc: Awaited<ReturnType<typeof serveHttp>>;
let conformance: Awaited<ReturnType<typeof serveHttp>>;
let gate: Server;
let gated: string;

beforeAll(async () => {
  calc = await serveHttp(calculator, { port: 0 });
  conformance = await serveHttp(createConformanceServer(), { port: 0 });
  // A reverse proxy that answers 401 unless the request carries X-Api-Key: s3cret.
  gate = createHttpServer(async (req, res) => {
    if (req.headers['x-api-key'] !== 's3cret') {
      res.writeHead(401).end('missing X-Api-Key');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host'),
    ) as Record<string, string>;
    const answer = await fetch(calc.url, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  const address = gate.address() as { port: number };
  gated = `http://127.0.0.1:${address.port}/mcp`;
});
afterAll(async () => {
  await calc?.close();
  await conformance?.close();
  gate?.close();
});

describe('mcp-fw call and inspect on a running server', () => {
  it('mcp-fw call https://…/mcp tool a=1 works', async () => {
    const run = await runCli(['call', calc.url, 'add', 'a=1', 'b=2'], REPO_ROOT);
    expect(run).toMatchObject({ code: 0, stdout: '{"result":3,"expression":"1 + 2"}\n' });
  });

  it('mcp-fw call "<command line>" tool key=value works (server-everything over stdio)', async () => {
    const run = await runCli(['call', everything, 'echo', 'message=hi'], REPO_ROOT);
    expect(run).toMatchObject({ code: 0, stdout: 'Echo: hi\n' });
  });

  it('--header K:V is sent with every request, repeated', async () => {
    const refused = await runCli(['call', gated, 'add', 'a=1', 'b=2'], REPO_ROOT);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Could not connect to ${gated}`);
    expect(refused.stderr).toContain('401');
    const run = await runCli(
      [
        'call',
        gated,
        'add',
        'a=1',
        'b=2',
        '--header',
        'X-Api-Key: s3cret',
        '--header',
        'X-Other:1',
      ],
      REPO_ROOT,
    );
    expect(run).toMatchObject({ code: 0, stdout: '{"result":3,"expression":"1 + 2"}\n' });
  });

  it('a malformed --header is refused before connecting, naming the fix', async () => {
    const run = await runCli(['call', calc.url, 'add', '--header', 'no-colon'], REPO_ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--header "no-colon" is not "Name: value"');
  });

  it('a tool that runs as a task is followed to its result, its status on stderr', async () => {
    const run = await runCli(
      ['call', conformance.url, 'slow_compute', 'seconds=0.2', 'label=x'],
      REPO_ROOT,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Computed x after 0.2s\n');
    expect(run.stderr).toMatch(/task .+: completed/);
  });

  it('an unknown tool names the tools the server has', async () => {
    const run = await runCli(['call', calc.url, 'sqrt', 'x=4'], REPO_ROOT);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('has no tool named sqrt');
    expect(run.stderr).toContain('add, subtract, multiply, divide');
  });

  it('mcp-fw inspect takes a URL or a command line', async () => {
    const byUrl = await runCli(['inspect', calc.url, '--json'], REPO_ROOT);
    expect(byUrl.code).toBe(0);
    const listed = JSON.parse(byUrl.stdout);
    expect(listed.protocolVersion).toBe('2026-07-28');
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual([
      'add',
      'subtract',
      'multiply',
      'divide',
    ]);
    const byCommand = await runCli(['inspect', everything], REPO_ROOT);
    expect(byCommand.code).toBe(0);
    expect(byCommand.stdout).toContain('echo');
    expect(byCommand.stdout).toContain('get-sum');
  });
});
