import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './support/cleanups.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { exampleProject, type TempProject } from './support/temp-project.ts';
import { eventually } from './support/until.ts';

const cleanup = cleanupAfterEach();

function calculator(): TempProject {
  const project = exampleProject('calculator');
  cleanup(() => project.remove());
  return project;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bundle-test', version: '1' },
  },
};
const ADD = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 } },
};

interface Served {
  readonly frames: Record<string, any>[];
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/**
 * The launcher caches through `module.enableCompileCache()` where Node has it (22.1+), and through
 * `vm.Script` cachedData in files of its own on Node 20. Node's compile cache says what it does
 * on stderr under NODE_DEBUG_NATIVE=COMPILE_CACHE; its directory is `<tmpdir>/node-compile-cache`,
 * and `serve` gives each project a temporary directory of its own (TMPDIR), so tests never share it.
 */
const NODE_COMPILE_CACHE = 'enableCompileCache' in nodeModule;

/** Runs `node <file>` as a stdio server: initialize and one add call, then stdin closes. */
function serve(file: string, cwd: string, env: Record<string, string> = {}): Served {
  const input = `${[INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, ADD]
    .map((m) => JSON.stringify(m))
    .join('\n')}\n`;
  const tmp = join(cwd, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const cacheEnv = { MCP_FW_CODE_CACHE: 'debug', NODE_DEBUG_NATIVE: 'COMPILE_CACHE', TMPDIR: tmp };
  const run = spawnSync(process.execPath, [file], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...cliEnv(), ...cacheEnv, ...env },
    timeout: 30_000,
  });
  const lines = run.stdout.split('\n').filter(Boolean);
  return {
    frames: lines.map((line) => JSON.parse(line) as Record<string, any>),
    stdout: run.stdout,
    stderr: run.stderr,
    status: run.status,
  };
}

function expectCalculatorAnswers(served: Served): void {
  expect(served.status).toBe(0);
  expect(served.frames.map((f) => f.id)).toEqual([1, 2]);
  expect(served.frames[0]!.result.serverInfo).toEqual({ name: 'calculator', version: '0.1.0' });
  expect(served.frames[1]!.result.structuredContent).toEqual({ result: 5, expression: '2 + 3' });
}

const cacheFilesIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

/** Node's compile cache directory for a project served by `serve`. */
const nodeCacheDir = (project: TempProject) => project.path('tmp/node-compile-cache');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether that start compiled `dist/<bundle>` and wrote its code cache. */
function wroteCache(served: Served, bundle: string): boolean {
  return NODE_COMPILE_CACHE
    ? new RegExp(`writing cache for (CommonJS )?\\S*/dist/${escapeRegExp(bundle)} to`).test(
        served.stderr,
      )
    : /mcp-fw code cache: written to /.test(served.stderr);
}

/** Whether that start ran `dist/<bundle>` from its code cache. */
function usedCache(served: Served, bundle: string): boolean {
  return NODE_COMPILE_CACHE
    ? new RegExp(`cache for (CommonJS )?\\S*/dist/${escapeRegExp(bundle)} was accepted`).test(
        served.stderr,
      )
    : /mcp-fw code cache: accepted/.test(served.stderr);
}

/** Node 22.1+: a corrupt compile cache is rewritten; with the cache off or unavailable the bundle still serves. */
function expectNodeCompileCacheRecovers(project: TempProject): void {
  const dir = nodeCacheDir(project);
  const [versionDir] = readdirSync(dir);
  const [file] = readdirSync(join(dir, versionDir!));
  writeFileSync(join(dir, versionDir!, file!), 'not a code cache');
  const corrupt = serve('dist/server.launch.cjs', project.dir);
  expectCalculatorAnswers(corrupt);
  expect([
    usedCache(corrupt, 'server.bundle.cjs'),
    wroteCache(corrupt, 'server.bundle.cjs'),
  ]).toEqual([false, true]);
  expect(usedCache(serve('dist/server.launch.cjs', project.dir), 'server.bundle.cjs')).toBe(true);

  const off = serve('dist/server.launch.cjs', project.dir, { MCP_FW_CODE_CACHE: '0' });
  expectCalculatorAnswers(off);
  expect(off.stderr).not.toContain('mcp-fw code cache');
  expect(off.stderr).not.toContain('[compile cache]');

  // A file where the cache directory would be, which even root cannot write into.
  rmSync(dir, { recursive: true });
  writeFileSync(dir, 'occupied');
  const unavailable = serve('dist/server.launch.cjs', project.dir);
  expectCalculatorAnswers(unavailable);
  expect(usedCache(unavailable, 'server.bundle.cjs')).toBe(false);
}

describe('mcp-fw build --bundle', () => {
  it('prints the HTTP start hint for a project whose start script serves HTTP, and the launcher honours PORT', async () => {
    const project = calculator();
    const pkg = JSON.parse(project.read('package.json'));
    project.write(
      'package.json',
      JSON.stringify({
        ...pkg,
        scripts: { ...pkg.scripts, start: 'mcp-fw start dist/server.js --http' },
      }),
    );
    const run = await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /\nStart it with: node dist\/server\.launch\.cjs --http \(Streamable HTTP at http:\/\/127\.0\.0\.1:\$PORT\/mcp, port 3000 when PORT is unset\)\n$/,
    );
    // No code cache: this test's bundle must not leave one for the cache tests to find.
    const { child, stderr } = startNode(['dist/server.launch.cjs', '--http'], project.dir, {
      PORT: '0',
      MCP_FW_CODE_CACHE: '0',
    });
    try {
      const match = await eventually(
        async () => /listening on (\S+)/.exec(stderr()),
        (m) => m !== null,
        'the launcher listens',
      );
      expect(new URL(match![1]).port).not.toBe('3000');
    } finally {
      child.kill();
    }
  });

  it('bundles the module that exports the server and serves it; the second start uses the code cache', async () => {
    const project = calculator();
    const run = await runCli(['build', '--bundle', '--entry', 'src/server.ts'], project.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /Bundled dist\/server\.js into dist\/server\.bundle\.cjs \(\d+ KB\) in \d+ ms\.\nWhat core loads on first use \(yaml, Ajv, \.\.\.\) is in dist\/server\.lazy\/: ship it with the bundle\.\nStart it with: node dist\/server\.launch\.cjs \(stdio; --http \[--port N\] for Streamable HTTP\)\n$/,
    );

    // No start-up time spent restating names functions already have (kept-names.ts), except
    // in the few expressions whose value is used (`return …,`, `if(…,`): none as a statement.
    const bundle = project.read('dist/server.bundle.cjs');
    const restated = [...bundle.matchAll(/(.)__name\(([\w$]+),"([\w$]+)"\)/g)].filter(
      (m) => m[2] === m[3],
    );
    expect(restated.filter((m) => /[;{}\n]/.test(m[1]!)).map((m) => m[0])).toEqual([]);
    expect(restated.length).toBeLessThan(20);

    const first = serve('dist/server.launch.cjs', project.dir);
    expectCalculatorAnswers(first);
    if (NODE_COMPILE_CACHE) {
      expect(first.stderr).toContain(
        `mcp-fw code cache: node compile cache ${nodeCacheDir(project)}`,
      );
    } else {
      expect(first.stderr).toContain('mcp-fw code cache: none yet');
      expect(first.stderr).toMatch(
        /mcp-fw code cache: written to .*\/dist\/\.server\.bundle\.cjs\..*\.v8cache/,
      );
      expect(cacheFilesIn(project.path('dist'))).toHaveLength(1);
    }
    expect([usedCache(first, 'server.bundle.cjs'), wroteCache(first, 'server.bundle.cjs')]).toEqual(
      [false, true],
    );

    const second = serve('dist/server.launch.cjs', project.dir);
    expectCalculatorAnswers(second);
    expect([
      usedCache(second, 'server.bundle.cjs'),
      wroteCache(second, 'server.bundle.cjs'),
    ]).toEqual([true, false]);
  });

  it('bundles a program that serves itself (the package main) as it is', async () => {
    const project = calculator();
    const pkg = JSON.parse(project.read('package.json')) as Record<string, unknown>;
    project.write('package.json', JSON.stringify({ ...pkg, main: 'dist/main.js' }));
    const run = await runCli(['build', '--bundle'], project.dir);
    expect(run.code).toBe(0);
    // main.ts ends with `await serveFromArgs(...)`: top-level await makes it an ES module bundle.
    expect(run.stderr).toContain('Bundled dist/main.js into dist/main.bundle.mjs');
    expect(run.stderr).toContain(
      'It has top-level await, so it is an ES module: its code cache needs Node 22.1 or later.',
    );
    expect(run.stderr).toMatch(/Start it with: node dist\/main\.launch\.cjs\n$/);
    const served = serve('dist/main.launch.cjs', project.dir);
    expectCalculatorAnswers(served);
    if (!('enableCompileCache' in (await import('node:module')))) {
      expect(served.stderr).toContain(
        'mcp-fw code cache: off (an ES module bundle is cached on Node 22.1 and later only)',
      );
    }
  });

  it('rebuilds a corrupt cache, and runs with the cache off or unwritable', async () => {
    const project = calculator();
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    expectCalculatorAnswers(serve('dist/server.launch.cjs', project.dir));
    if (NODE_COMPILE_CACHE) return expectNodeCompileCacheRecovers(project);
    const [cache] = cacheFilesIn(project.path('dist'));
    writeFileSync(project.path(`dist/${cache}`), 'not a code cache');
    const corrupt = serve('dist/server.launch.cjs', project.dir);
    expectCalculatorAnswers(corrupt);
    expect(corrupt.stderr).toMatch(/mcp-fw code cache: rejected/);
    expect(corrupt.stderr).toMatch(/written to/);
    expect(serve('dist/server.launch.cjs', project.dir).stderr).toMatch(
      /mcp-fw code cache: accepted/,
    );

    const off = serve('dist/server.launch.cjs', project.dir, { MCP_FW_CODE_CACHE: '0' });
    expectCalculatorAnswers(off);
    expect(off.stderr).not.toContain('mcp-fw code cache');

    // Nowhere to write beside the bundle (a directory where the cache file would be, which even
    // root cannot replace): the cache goes to the temporary directory
    // (the project's own, as `serve` sets TMPDIR) instead.
    const [name] = cacheFilesIn(project.path('dist'));
    rmSync(project.path(`dist/${name}`));
    mkdirSync(project.path(`dist/${name}/occupied`), { recursive: true });
    const elsewhere = serve('dist/server.launch.cjs', project.dir);
    expectCalculatorAnswers(elsewhere);
    const written = /written to (.*\.v8cache)/.exec(elsewhere.stderr)?.[1];
    expect(
      written?.startsWith(
        join(project.path('tmp'), `mcp-fw-code-cache-${process.getuid?.() ?? 'user'}`),
      ),
    ).toBe(true);
    cleanup(() => rmSync(written!, { force: true }));
    expect(readdirSync(project.path('dist')).filter((f) => f.includes('.v8cache.'))).toEqual([]);
    expect(serve('dist/server.launch.cjs', project.dir).stderr).toContain(
      `mcp-fw code cache: accepted (${written})`,
    );
  });

  it('never runs an old cache for a rebuilt bundle, even one of the same size', async () => {
    const project = calculator();
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    expect(wroteCache(serve('dist/server.launch.cjs', project.dir), 'server.bundle.cjs')).toBe(
      true,
    );
    const before = project.read('dist/server.bundle.cjs');
    // V8 checks only the length of the source a cache was made from.
    project.write(
      'src/server.ts',
      project.read('src/server.ts').replace("name: 'calculator'", "name: 'calculatoR'"),
    );
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    expect(project.read('dist/server.bundle.cjs').length).toBe(before.length);
    const rebuilt = serve('dist/server.launch.cjs', project.dir);
    // Node's compile cache is one file per bundle path, checked against the source's hash.
    expect(rebuilt.stderr).toContain(
      NODE_COMPILE_CACHE ? 'code hash mismatch' : 'mcp-fw code cache: none yet',
    );
    expect([
      usedCache(rebuilt, 'server.bundle.cjs'),
      wroteCache(rebuilt, 'server.bundle.cjs'),
    ]).toEqual([false, true]);
    expect(rebuilt.frames[0]!.result.serverInfo.name).toBe('calculatoR');
  });

  it('runs an entry that starts with a hashbang', async () => {
    const project = calculator();
    project.write(
      'src/cli.ts',
      "#!/usr/bin/env node\nimport { serveFromArgs } from '@mcp-fw/core/serve';\nimport { server } from './server.js';\nvoid serveFromArgs(server);\n",
    );
    expect((await runCli(['build', '--bundle', '--entry', 'src/cli.ts'], project.dir)).code).toBe(
      0,
    );
    expect(project.read('dist/cli.bundle.cjs').startsWith('#!')).toBe(true);
    expectCalculatorAnswers(serve('dist/cli.launch.cjs', project.dir));
    const second = serve('dist/cli.launch.cjs', project.dir);
    expectCalculatorAnswers(second);
    expect(usedCache(second, 'cli.bundle.cjs')).toBe(true);
  });

  it('says what to pass when there is no entry, and mcp-fw start points bundles to node', async () => {
    const project = calculator();
    // Only the tools' class: no server.js, main.js or index.js in dist, no bin or main.
    spawnSync('rm', [project.path('src/server.ts'), project.path('src/main.ts')]);
    const run = await runCli(['build', '--bundle'], project.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'mcp-fw build --bundle found no entry to bundle (looked for dist/server.js, dist/main.js, dist/index.js).',
    );
    expect(run.stderr).toContain(
      'Pass the built module that exports your server: mcp-fw build --bundle --entry dist/server.js.',
    );

    const start = await runCli(['start', 'dist/server.launch.cjs'], project.dir);
    expect(start).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: dist/server.launch.cjs is a bundle from mcp-fw build --bundle: it starts itself, without the CLI.\nRun node dist/server.launch.cjs (add --http [--port N] for Streamable HTTP).\n',
    });
  });

  it('runs on its own, without node_modules: what core loads lazily is in the lazy files beside the bundle', async () => {
    const project = calculator();
    // A tool with a raw JSON Schema: validated by Ajv, which core requires on first use.
    project.write(
      'src/raw.ts',
      [
        "import { createServer, Tool } from '@mcp-fw/core';",
        'class Raw {',
        "  @Tool({ input: { type: 'object', properties: { n: { type: 'number', minimum: 0 } }, required: ['n'] } })",
        '  square({ n }: { n: number }) {',
        '    return String(n * n);',
        '  }',
        '}',
        "export const server = createServer({ name: 'raw', version: '1.0.0', providers: [Raw] });",
        '',
      ].join('\n'),
    );
    expect((await runCli(['build', '--bundle', '--entry', 'dist/raw.js'], project.dir)).code).toBe(
      0,
    );
    const alone = mkdtempSync(join(tmpdir(), 'mcp-fw-bundle-alone-'));
    cleanup(() => rmSync(alone, { recursive: true, force: true }));
    for (const file of ['raw.bundle.cjs', 'raw.launch.cjs'])
      copyFileSync(project.path(`dist/${file}`), join(alone, file));
    cpSync(project.path('dist/raw.lazy'), join(alone, 'raw.lazy'), { recursive: true });
    const input = [
      INITIALIZE,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'square', arguments: { n: 7 } },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'square', arguments: { n: -1 } },
      },
    ];
    const run = spawnSync(process.execPath, [join(alone, 'raw.launch.cjs')], {
      cwd: alone,
      input: `${input.map((m) => JSON.stringify(m)).join('\n')}\n`,
      encoding: 'utf8',
      env: { ...cliEnv(), NODE_PATH: '' },
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    const [, ok, refused] = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(ok.result.content).toEqual([{ type: 'text', text: '49' }]);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0].text).toContain('n');
  });

  it('keeps stdout to protocol frames, also when the handler logs', async () => {
    const project = calculator();
    project.write(
      'src/calculator.ts',
      project
        .read('src/calculator.ts')
        .replace(/(add\([^)]*\)[^{]*\{)/, "$1\n    console.log('adding');"),
    );
    expect(project.read('src/calculator.ts')).toContain("console.log('adding')");
    expect(
      (await runCli(['build', '--bundle', '--entry', 'dist/server.js'], project.dir)).code,
    ).toBe(0);
    const served = serve('dist/server.launch.cjs', project.dir);
    expectCalculatorAnswers(served);
    for (const line of served.stdout.split('\n').filter(Boolean))
      expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
    expect(served.stderr).toContain('adding');
  });
});

/** Starts `node <args>` in `cwd` and collects its stderr. */
function startNode(args: readonly string[], cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: cliEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr };
}
