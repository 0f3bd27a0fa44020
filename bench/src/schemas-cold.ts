// Schema extraction time (issue 18: cold extraction of a 100-tool project ≤ 1 s). Writes a
// project of 10 classes × 10 plain-typed tools under bench/.cache, then measures, each in a fresh
// process: the whole `mcp-fw-schemas` command (node start, TypeScript load, extraction, write),
// and inside it the extraction alone; then in one process the re-extraction after one file
// changed (what `mcp-fw dev` pays per edit). Usage: `npm run build && node bench/dist/schemas-cold.js`;
// BENCH_SCHEMA_RUNS (default 7) fresh processes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PROJECT = join(ROOT, 'bench/.cache/schemas-project');
const CLASSES = 10;
const TOOLS_PER_CLASS = 10;

// Ten signature shapes, each exercising a different part of the converter.
const SHAPES: readonly ((n: string) => string)[] = [
  (n) =>
    `/**\n   * Weather for a city.\n   * @param city The city\n   * @param days How many days\n   */\n  @Tool()\n  city${n}(city: string, days?: number): string { return city + days; }`,
  (n) =>
    `/** Adds two numbers. */\n  @Tool()\n  add${n}({ a, b }: { a: number; b: number }): number { return a + b; }`,
  (n) =>
    `/** Places an order. */\n  @Tool()\n  order${n}(order: Order): string { return order.id; }`,
  (n) => `@Tool()\n  mode${n}(mode: Mode, tags: string[]): string { return mode + tags.join(); }`,
  (n) =>
    `@Tool()\n  range${n}(range: [number, number], when: Date): string { return String(range) + when; }`,
  (n) =>
    `@Tool()\n  filter${n}(filter: Record<string, string | number | null>): string { return JSON.stringify(filter); }`,
  (n) => `@Tool()\n  tree${n}(tree: TreeNode): number { return tree.value; }`,
  (n) => `@Tool()\n  page${n}(page: Page<Item>): number { return page.items.length; }`,
  (n) =>
    `/** Looks up a result. */\n  @Tool()\n  async lookup${n}(id: string, ctx: Context): Promise<Result> { return { id, found: ctx !== undefined, score: 1 }; }`,
  (n) =>
    `@Tool()\n  search${n}(q: string, limit = 10, strict = false): string { return q + limit + strict; }`,
];

function classFile(c: number): string {
  const tools = Array.from(
    { length: TOOLS_PER_CLASS },
    (_, t) => `  ${SHAPES[t % SHAPES.length](`_${c}_${t}`)}`,
  ).join('\n\n');
  return `import { Tool, type Context } from '@mcp-fw/core';

export type Mode = 'walk' | 'bike' | 'car';
export interface Address {
  /** Street and number. */
  street: string;
  /** @pattern ^[0-9]{5}$ */
  zip: string;
}
export interface Order {
  id: string;
  /** @minimum 1 */
  quantity: number;
  address: Address;
  notes?: string;
}
export interface TreeNode { value: number; children: TreeNode[] }
export interface Item { name: string; price: number }
export interface Page<T> { items: T[]; next: string | null }
export interface Result { id: string; found: boolean; score: number }

export class Tools${c} {
${tools}
}
`;
}

function writeProject(): void {
  rmSync(PROJECT, { recursive: true, force: true });
  mkdirSync(join(PROJECT, 'src'), { recursive: true });
  // As a user's project sees it: @mcp-fw/core through its published types (dist), no source condition.
  writeFileSync(
    join(PROJECT, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'ESNext.Decorators'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        rootDir: 'src',
        outDir: 'dist',
      },
      include: ['src'],
    }),
  );
  for (let c = 0; c < CLASSES; c++) writeFileSync(join(PROJECT, `src/tools${c}.ts`), classFile(c));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// One fresh process: the CLI's whole run, and the extraction alone inside it.
// One fresh process: TypeScript's load, the cold extraction, and the re-extraction after one
// file changed, each as wall time and as CPU time (user + system), which other load on the
// machine inflates less.
const CHILD = `
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const mark = () => [performance.now(), cpu()];
const m0 = mark();
const { SchemaExtractor, writeManifest } = await import(process.argv[1]);
const m1 = mark();
const extractor = new SchemaExtractor({ tsconfig: process.argv[2] });
const manifest = extractor.extract();
const m2 = mark();
writeManifest(process.argv[3], manifest);
const tools = Object.values(manifest).reduce((n, m) => n + Object.keys(m).length, 0);
const file = process.argv[4];
const { writeFileSync, readFileSync } = await import('node:fs');
writeFileSync(file, readFileSync(file, 'utf8').replace('@Tool()', '/** Edited. */\\n  @Tool()'));
const m3 = mark();
const edited = extractor.extract();
const m4 = mark();
const d = (a, b) => ({ wall: b[0] - a[0], cpu: b[1] - a[1] });
console.log(JSON.stringify({ load: d(m0, m1), extract: d(m1, m2), incremental: d(m3, m4), tools, editedSeen: Object.values(edited)[0] !== undefined && JSON.stringify(edited) !== JSON.stringify(manifest) }));
`;

type Phase = { wall: number; cpu: number };

function main(): void {
  const runs = Number(process.env.BENCH_SCHEMA_RUNS ?? 7);
  const entry = createRequire(import.meta.url).resolve('@mcp-fw/typescript');
  const out = join(PROJECT, 'src/schemas.gen.ts');
  const samples: {
    wall: number;
    load: Phase;
    extract: Phase;
    incremental: Phase;
    tools: number;
    editedSeen: boolean;
  }[] = [];
  for (let i = 0; i < runs; i++) {
    writeProject();
    const start = performance.now();
    const line = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        CHILD,
        entry,
        join(PROJECT, 'tsconfig.json'),
        out,
        join(PROJECT, 'src/tools0.ts'),
      ],
      {
        encoding: 'utf8',
      },
    );
    const wall = performance.now() - start;
    samples.push({ wall, ...JSON.parse(line) });
  }
  const tools = samples[0].tools;
  if (tools !== CLASSES * TOOLS_PER_CLASS)
    throw new Error(`expected ${CLASSES * TOOLS_PER_CLASS} tools, extracted ${tools}`);
  if (!samples.every((s) => s.editedSeen))
    throw new Error('the re-extraction did not see the edit');
  const phase = (pick: (s: (typeof samples)[number]) => Phase) => ({
    wall: Math.round(median(samples.map((s) => pick(s).wall))),
    cpu: Math.round(median(samples.map((s) => pick(s).cpu))),
  });
  const report = {
    node: process.version,
    loadAverage: loadavg()[0],
    tools,
    runs,
    medianMs: {
      processWall: Math.round(median(samples.map((s) => s.wall))),
      typescriptLoad: phase((s) => s.load),
      coldExtraction: phase((s) => s.extract),
      incrementalAfterOneEdit: phase((s) => s.incremental),
    },
    manifestBytes: readFileSync(out).length,
  };
  console.log(JSON.stringify(report, null, 2));
  const { wall, cpu } = report.medianMs.coldExtraction;
  console.log(
    `cold extraction of ${tools} tools ≤ 1 s: ${cpu <= 1000 ? 'PASS' : 'FAIL'} (median ${cpu} ms CPU, ${wall} ms wall)`,
  );
}

main();
