// Reload benchmark for `mcp-fw dev`: the time from saving a source file to the client receiving
// notifications/tools/list_changed, for each example, over stdio with the official SDK client.
// Each example is copied to a temporary directory (the repository's files are never edited);
// each save adds a differently described probe tool to src/server.ts, so every reload changes
// the tool list. `typed` is a plain-typed project using @mcp-fw/typescript (the CLI's test
// fixture): each save rewrites a method's JSDoc, so the reload includes regenerating
// src/schemas.gen.ts. A script, not a test: it asserts nothing about time.
//
//   npx tsc -b && node bench/dist/reload.js            # all examples, 10 saves each
//   BENCH_RELOAD_SAVES=30 BENCH_RELOAD_EXAMPLES=calculator node bench/dist/reload.js
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { median, quantile, withTimeout } from './stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'packages/cli/bin/mcp-fw.js');
const SAVES = Number(process.env.BENCH_RELOAD_SAVES ?? 10);
// The examples whose src/server.ts exports `server` (the others export factories).
const EXAMPLES = (process.env.BENCH_RELOAD_EXAMPLES ?? 'calculator,logistics,prompts,typed').split(
  ',',
);
const TYPED = join(ROOT, 'packages/cli/test/fixtures/typed');

/** What a save writes, and the description of the tool that shows it was served. */
interface Subject {
  readonly dir: string;
  readonly file: string;
  readonly save: (n: number) => string;
  readonly served: (tools: { name: string; description?: string }[], n: number) => boolean;
}

function subject(name: string): Subject {
  if (name === 'typed') {
    const dir = copyProject(
      TYPED,
      name,
      JSON.parse(readFileSync(join(TYPED, 'tsconfig.json'), 'utf8')),
    );
    const file = join(dir, 'src/notes.ts');
    const original = readFileSync(file, 'utf8');
    return {
      dir,
      file,
      save: (n) => original.replace('Write a note down.', `Write a note down (probe ${n}).`),
      served: (tools, n) => tools.some((t) => t.description === `Write a note down (probe ${n}).`),
    };
  }
  const dir = copyExample(name);
  const file = join(dir, 'src/server.ts');
  const original = readFileSync(file, 'utf8');
  return {
    dir,
    file,
    save: (n) => original + probeTool(n),
    served: (tools, n) => tools.some((t) => t.description === `reload probe ${n}`),
  };
}

/** A copy of examples/<name> with a standalone tsconfig and the repository's node_modules linked. */
function copyExample(name: string): string {
  return copyProject(join(ROOT, 'examples', name), name, {
    extends: join(ROOT, 'tsconfig.base.json'),
    compilerOptions: {
      rootDir: 'src',
      outDir: 'dist',
      customConditions: [],
      composite: false,
      incremental: false,
    },
    include: ['src'],
  });
}

function copyProject(from: string, name: string, tsconfig: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), `mcp-fw-reload-${name}-`));
  cpSync(join(from, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(from, 'package.json'), join(dir, 'package.json'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (!entry.startsWith('.'))
      symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

function probeTool(n: number): string {
  return `
import { Tool as BenchTool } from '@mcp-fw/core';
class BenchProbe {
  @BenchTool({ description: 'reload probe ${n}', input: { type: 'object', properties: {} } })
  bench_probe(): string {
    return 'probe ${n}';
  }
}
server.add(BenchProbe);
`;
}

interface ExampleResult {
  example: string;
  savesMs: number[];
  supervisorMs: number[];
}

async function measure(example: string): Promise<ExampleResult> {
  const { dir, file, save, served } = subject(example);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'dev', 'src/server.ts'],
    cwd: dir,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-fw-reload-bench', version: '1.0.0' });
  let notified: (() => void) | undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => notified?.());
  await client.connect(transport);
  await client.listTools();
  const savesMs: number[] = [];
  try {
    // Save 0 warms the caches (the first spare child, the OS file cache) and is not counted.
    for (let n = 0; n <= SAVES; n++) {
      const changed = new Promise<void>((resolve) => (notified = resolve));
      const saved = performance.now();
      writeFileSync(file, save(n));
      await withTimeout(changed, 30_000, `${example}: list_changed after save ${n}`);
      const elapsed = performance.now() - saved;
      const tools = (await client.listTools()).tools;
      if (!served(tools, n)) throw new Error(`${example}: save ${n} is not served`);
      if (n > 0) savesMs.push(elapsed);
    }
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const supervisorMs = [...stderr.matchAll(/reloaded .* in (\d+) ms/g)]
    .slice(1)
    .map((m) => Number(m[1]));
  return { example, savesMs, supervisorMs };
}

const fmt = (ms: number) => `${Math.round(ms)} ms`;
const results: ExampleResult[] = [];
for (const example of EXAMPLES) results.push(await measure(example));

console.log(
  `mcp-fw dev reload: file saved → notifications/tools/list_changed received (${SAVES} saves each, Node ${process.version})\n`,
);
console.log('| example | p50 | p90 | min | max | supervisor p50 (compile → switched) |');
console.log('|---|---|---|---|---|---|');
for (const { example, savesMs, supervisorMs } of results) {
  const cells = [
    median(savesMs),
    quantile(savesMs, 0.9),
    Math.min(...savesMs),
    Math.max(...savesMs),
  ].map(fmt);
  console.log(`| ${example} | ${cells.join(' | ')} | ${fmt(median(supervisorMs))} |`);
}
const resultsDir = join(ROOT, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'reload.json'),
  `${JSON.stringify({ node: process.version, saves: SAVES, results }, null, 2)}\n`,
);
