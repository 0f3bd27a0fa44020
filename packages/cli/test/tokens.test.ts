import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { createServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { quickJsSandbox } from '@mcp-fw/codemode';
import { largeSurface, surfaceProvider } from '../../core/test/support/large-surface.ts';
import { toolsFootprint } from '../src/tokens/footprint.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { FIXTURES } from './support/paths.ts';
import { REPO_ROOT } from '../../core/test/support/paths.ts';

// tools/list of the generated thousand-tool surface (2026-07-28), in o200k_base tokens: as
// served, behind server.searchTools(), and in server.codeMode().
const FIGURES = { plain: 91_506, search: 200, code: 67_759 };

const surface = largeSurface();
const bigServer = () =>
  createServer({ name: 'github', version: '1.0.0', providers: [surfaceProvider(surface)] });

async function listTools(server: ReturnType<typeof createServer>) {
  const client = await connectTestClient(server, { protocolVersion: '2026-07-28' });
  const tools: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request<{ tools: Record<string, unknown>[]; nextCursor?: string }>(
      'tools/list',
      cursor === undefined ? {} : { cursor },
    );
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await client.close();
  return tools;
}

// A thousand tools take seconds to compile: one server serves the plain list (both tests) and,
// once that is taken, the list behind search; code mode needs a server of its own.
let shared: ReturnType<typeof createServer> | undefined;
let plainList: Promise<Record<string, unknown>[]> | undefined;
const plainTools = () => (plainList ??= listTools((shared ??= bigServer())));

describe('token footprint', { timeout: 60_000 }, () => {
  it("the report's total is within 2 % of the tokenizer's count of the tools/list result, and its per-tool counts add up to it", async () => {
    const tools = await plainTools();
    const report = toolsFootprint(tools);
    // OpenAI's own tiktoken (the Rust implementation, as WebAssembly) is the reference count.
    const tiktoken = get_encoding('o200k_base');
    const reference = tiktoken.encode(JSON.stringify({ tools })).length;
    const perTool = tools.map((t) => tiktoken.encode(JSON.stringify(t)).length);
    tiktoken.free();
    const sum = report.tools.reduce((n, t) => n + t.tokens, 0);
    expect(Math.abs(report.total - reference) / reference).toBeLessThan(0.02);
    expect(Math.abs(sum - reference) / reference).toBeLessThan(0.02);
    expect(report.tools.map((t) => t.tokens)).toEqual(perTool);
    expect(report.total).toBe(FIGURES.plain);
  });

  it('the thousand-tool surface costs far fewer tokens behind searchTools and in code mode', async () => {
    const plain = toolsFootprint(await plainTools()).total;
    const search = toolsFootprint(await listTools((shared ??= bigServer()).searchTools())).total;
    const code = toolsFootprint(
      await listTools(bigServer().codeMode({ sandbox: quickJsSandbox() })),
    ).total;
    expect({ plain, search, code }).toEqual(FIGURES);
    // The figures the large-servers guide gives are these.
    const guide = readFileSync(join(REPO_ROOT, 'docs/guide/large-servers.md'), 'utf8');
    for (const figure of Object.values(FIGURES))
      expect(guide).toContain(figure.toLocaleString('en-US'));
  });

  it('inspect --tokens reports tools/list tokens per revision and per tool, and names what to trim', async () => {
    const run = await runCli(
      ['inspect', '--tokens', 'server.mjs'],
      join(FIXTURES, 'tokens'),
      cliEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^tools\/list tokens, counted with o200k_base \(gpt-tokenizer\):\n {2}2024-11-05 +\d+ tokens {2}\(4 tools\)\n/,
    );
    for (const era of ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])
      expect(run.stdout).toMatch(new RegExp(`  ${era} +\\d+ tokens  \\(4 tools\\)`));
    expect(run.stdout).toMatch(/2026-07-28, per tool, most first:\n +\d+ {2}tariffs\n/);
    expect(run.stdout).toMatch(/tariffs: description is \d{3} tokens: say what the tool does/);
    expect(run.stdout).toMatch(
      /tariffs: inputSchema\.properties\.country: enum of 30 values \(\d+ tokens\)/,
    );
    expect(run.stdout).toMatch(/ship: \$defs\.address \(\d+ tokens\) is repeated in 2 tools/);
    expect(run.stdout).not.toMatch(/ping:/);
    const json = await runCli(
      ['inspect', '--tokens', '--json', 'server.mjs'],
      join(FIXTURES, 'tokens'),
      cliEnv(),
    );
    const parsed = JSON.parse(json.stdout) as {
      eras: Record<string, { total: number; tools: { name: string; tokens: number }[] }>;
    };
    const newest = parsed.eras['2026-07-28'];
    expect(newest?.tools.map((t) => t.name).sort()).toEqual(['ping', 'quote', 'ship', 'tariffs']);
    const sum = newest?.tools.reduce((n, t) => n + t.tokens, 0) ?? 0;
    expect(Math.abs((newest?.total ?? 0) - sum) / sum).toBeLessThan(0.02);
  });
});
