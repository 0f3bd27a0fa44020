// Every ```ts block of every README is compiled, and the whole programs among them are run, so
// the documentation cannot drift from the code. A block is a fragment (type-checked against a
// prelude), a server (started over stdio and listed by the official client) or a script (run
// to exit 0): see support/doc-blocks.ts. The headline is also run through the mcp-fw CLI, the
// guide's authentication example over HTTP, and the READMEs' `mcp-fw` commands, links and JSON
// blocks are checked against what exists.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allBlocks,
  anchorOf,
  anchorsIn,
  blocksOf,
  cliMentions,
  COMPILER_OPTIONS,
  compileWorkspace,
  declaredTools,
  emitted,
  jsonBlocks,
  readmes,
  relativeLinks,
  writeWorkspace,
  type DocBlock,
  type DocDiagnostic,
  type DocWorkspace,
} from './support/doc-blocks.ts';
import { expectServesWhatItDeclares } from './support/doc-served.ts';
import { REPO_ROOT } from './support/paths.ts';

const run = promisify(execFile);
const BIN = join(REPO_ROOT, 'packages/cli/bin/mcp-fw.js');
const blocks = allBlocks();
const servers = blocks.filter((b) => b.kind === 'server-module' || b.kind === 'server-program');
const scripts = blocks.filter((b) => b.kind === 'script');
/** The root README's first block: what a newcomer copies first. */
const headline = blocks.find((b) => b.readme === 'README.md');

let workspace: DocWorkspace;
let diagnostics: Map<string, DocDiagnostic[]>;

beforeAll(async () => {
  // The programs run on Node against the packages' built output (npm test builds it first;
  // `tsc -b` is incremental, so this costs nothing then).
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/core'],
    { cwd: REPO_ROOT },
  );
  workspace = writeWorkspace(blocks);
  diagnostics = await compileWorkspace(workspace, blocks);
}, 120_000);

function problems(block: DocBlock): string[] {
  const found = [...(diagnostics.get('*') ?? []), ...(diagnostics.get(block.stem) ?? [])].map(
    (d) => `${d.where}: ${d.message}`,
  );
  if (found.length && block.kind !== 'fragment') {
    found.push(
      `(a block that is not a whole program needs <!-- doc-test: fragment --> on the line before its fence)`,
    );
  }
  return found;
}

describe('the README code blocks', () => {
  it('are found in the root README and in the core package README, and each is classified', () => {
    expect(readmes()).toEqual(
      expect.arrayContaining(['README.md', 'packages/core/README.md', 'packages/cli/README.md']),
    );
    const core = blocks.filter((b) => b.readme === 'packages/core/README.md');
    expect(core.length).toBeGreaterThan(20);
    expect(new Set(blocks.map((b) => b.kind))).toEqual(
      new Set(['fragment', 'server-module', 'server-program', 'script']),
    );
    expect(headline?.kind).toBe('server-module');
  });

  it('classifies by fence annotation and by content, and places blocks at their fence line', () => {
    const text = [
      '# x',
      '',
      '```ts',
      "export const server = createServer({ name: 'a', version: '1' });",
      '```',
      '',
      '<!-- doc-test: fragment -->',
      '```ts',
      "server.tools.disable('x');",
      '```',
      '```ts fragment',
      'ctx.log.info(1);',
      '```',
      '```typescript',
      'serveStdio(server);',
      '```',
      '```ts',
      'console.log(1);',
      '```',
      '```bash',
      'echo',
      '```',
    ].join('\n');
    expect(blocksOf('packages/x/README.md', text).map((b) => [b.where, b.kind, b.stem])).toEqual([
      ['packages/x/README.md:3', 'server-module', 'packages-x-readme-L3'],
      ['packages/x/README.md:8', 'fragment', 'packages-x-readme-L8'],
      ['packages/x/README.md:11', 'fragment', 'packages-x-readme-L11'],
      ['packages/x/README.md:14', 'server-program', 'packages-x-readme-L14'],
      ['packages/x/README.md:17', 'script', 'packages-x-readme-L17'],
    ]);
    expect(
      declaredTools(
        "  @Tool({ description: 'x', input: z.object({ a: z.number() }) })\n  add({ a }) {}\n  @Tool({ name: 'b_c' })\n  async bc() {}",
      ),
    ).toEqual(['add', 'b_c']);
  });

  it('report a type error at its README file and line', async () => {
    const broken = blocksOf(
      'README.md',
      ['', '```ts', 'const n: number = 1;', 'const s: string = n;', '```'].join('\n'),
    );
    const ws = writeWorkspace(broken, join(REPO_ROOT, '.cache', 'doc-tests-selfcheck'));
    const found = await compileWorkspace(ws, broken);
    expect(found.get(broken[0].stem)).toEqual([
      {
        where: 'README.md:4:7',
        message: "error TS2322: Type 'number' is not assignable to type 'string'.",
      },
    ]);
  });

  it.each(blocks.map((b) => [b.where, b] as const))('%s type-checks', (_where, block) => {
    expect(problems(block)).toEqual([]);
  });

  it.each(servers.map((b) => [b.where, b] as const))(
    '%s starts over stdio and serves the official client what it declares',
    async (_where, block) => {
      expect(problems(block)).toEqual([]);
      await expectServesWhatItDeclares(workspace, block);
    },
  );

  it.each(scripts.map((b) => [b.where, b] as const))(
    '%s runs to completion',
    async (_where, block) => {
      expect(problems(block)).toEqual([]);
      const file = emitted(workspace, block);
      await expect(
        run(process.execPath, [file], { cwd: workspace.programs, timeout: 20_000 }),
      ).resolves.toBeDefined();
    },
  );

  it('the headline example can be inspected and called with mcp-fw', async () => {
    expect(headline, 'the root README has a ts block').toBeDefined();
    const entry = join(workspace.programs, 'src', `${headline!.stem}.ts`);
    const env = { ...process.env, NO_COLOR: '1' };
    const inspect = await run(process.execPath, [BIN, 'inspect', entry, '--json'], {
      cwd: workspace.programs,
      env,
    });
    const listed = JSON.parse(inspect.stdout);
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(
      declaredTools(headline!.code),
    );
    const tool = listed.tools[0];
    expect(tool.inputSchema.type).toBe('object');
    // Plain-typed: every parameter described by its @param line, all required.
    const properties = Object.values(tool.inputSchema.properties) as { description?: string }[];
    expect(properties.length).toBeGreaterThan(0);
    for (const property of properties) expect(property.description).toEqual(expect.any(String));
    expect(tool.inputSchema.required).toEqual(Object.keys(tool.inputSchema.properties));
    // The README says what to call it with; the call must answer as it says.
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const call = /npx mcp-fw call (?:src\/)?server\.ts (\S+)((?: \w+=\S+)+)/.exec(readme);
    expect(call, 'the README shows an `npx mcp-fw call src/server.ts …` line').not.toBeNull();
    const [, name, args] = call!;
    const called = await run(
      process.execPath,
      [BIN, 'call', entry, name, ...args.trim().split(' ')],
      { cwd: workspace.programs, env },
    );
    const answer = /# → (.+)/.exec(readme.slice(call!.index))?.[1];
    expect(called.stdout.trim()).toBe(answer);
  });

  it('name only mcp-fw commands and flags that exist', async () => {
    const mentions = readmes().flatMap((readme) =>
      cliMentions(readme, readFileSync(join(REPO_ROOT, readme), 'utf8')),
    );
    expect(mentions.length).toBeGreaterThan(10);
    const help = async (...args: string[]) =>
      (
        await run(process.execPath, [BIN, ...args, '--help'], {
          env: { ...process.env, NO_COLOR: '1' },
        })
      ).stdout;
    const commands = [...(await help()).matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]);
    const unknown: string[] = [];
    const flagsOf = new Map<string, string>();
    for (const { where, command, flags } of mentions) {
      if (!commands.includes(command)) {
        unknown.push(`${where}: mcp-fw ${command} is not a command (${commands.join(', ')})`);
        continue;
      }
      if (!flagsOf.has(command)) flagsOf.set(command, await help(command));
      for (const flag of flags) {
        if (!new RegExp(`${flag}\\b`).test(flagsOf.get(command)!))
          unknown.push(`${where}: mcp-fw ${command} has no ${flag}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('the Authentication example refuses a request without a token and gives handlers ctx.auth, in both eras', async () => {
    const block = blocks.find(
      (b) =>
        b.readme === 'packages/core/README.md' &&
        /authenticate:/.test(b.code) &&
        /export const handler\b/.test(b.code),
    );
    expect(
      block,
      'packages/core/README.md has the authentication example, exporting `handler`',
    ).toBeDefined();
    expect(problems(block!)).toEqual([]);
    const file = join(workspace.programs, 'dist', `${block!.stem}.http.mjs`);
    writeFileSync(
      file,
      [
        "import { createServer } from 'node:http';",
        "import { toNodeListener } from '@mcp-fw/core/node';",
        `const { handler } = await import('./${block!.stem}.js');`,
        "const http = createServer(toNodeListener(handler)).listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));",
        '',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [file], {
      cwd: workspace.programs,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once('exit', (code) => reject(new Error(`${block!.where} exited with ${code}`)));
      });
      const refused = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(
        /^Bearer resource_metadata="https:\/\/mcp\.example\.com\//,
      );
      const eras: [string, ConstructorParameters<typeof Client>[1]][] = [
        ['2025-11-25', { supportedProtocolVersions: ['2025-11-25'] }],
        ['2026-07-28', { versionNegotiation: { mode: 'auto' } }],
      ];
      for (const [version, options] of eras) {
        const client = new Client({ name: 'doc-test', version: '1.0.0' }, options);
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: 'Bearer token-alice' } },
          }),
        );
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'You are alice.' }]);
        await client.close();
      }
    } finally {
      child.kill();
    }
  });

  it('link only to files and headings that exist', () => {
    expect(anchorOf('The context: `ctx`')).toBe('the-context-ctx');
    expect(anchorOf('Quick start (Node ≥ 20.19)')).toBe('quick-start-node--2019');
    const broken: string[] = [];
    let checked = 0;
    for (const readme of readmes()) {
      for (const { where, path, anchor } of relativeLinks(
        readme,
        readFileSync(join(REPO_ROOT, readme), 'utf8'),
      )) {
        checked++;
        const target = path ? join(REPO_ROOT, dirname(readme), path) : join(REPO_ROOT, readme);
        if (!existsSync(target)) broken.push(`${where}: ${path} does not exist`);
        else if (
          anchor &&
          target.endsWith('.md') &&
          !anchorsIn(readFileSync(target, 'utf8')).has(anchor)
        ) {
          broken.push(`${where}: ${path || readme} has no heading #${anchor}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(broken).toEqual([]);
  });

  it('have JSON blocks that parse, and the guide documents the compiler options its blocks are compiled with', () => {
    const found = readmes().flatMap((readme) =>
      jsonBlocks(readme, readFileSync(join(REPO_ROOT, readme), 'utf8')),
    );
    expect(found.length).toBeGreaterThan(3);
    const invalid = found.flatMap(({ where, text }) => {
      try {
        JSON.parse(text);
        return [];
      } catch (error) {
        return [`${where}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
    const tsconfig = found.find(
      (b) => b.where.startsWith('packages/core/README.md') && b.text.includes('compilerOptions'),
    );
    expect(tsconfig, 'the guide shows the compiler options').toBeDefined();
    const documented = JSON.parse(tsconfig!.text).compilerOptions;
    const used = Object.fromEntries(
      Object.keys(documented).map((key) => [
        key,
        (COMPILER_OPTIONS as Record<string, unknown>)[key],
      ]),
    );
    expect(documented).toEqual(used);
  });
});
