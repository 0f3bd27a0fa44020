// The root entry is runtime-neutral (layering.test.ts reads that from the source): what Node
// loads through `node` variants of package.json `imports`, every other runtime loads through
// their runtime-neutral variant. Both are run here in real processes, the second with the
// `node` condition taken away for core's subpath imports, and must serve the same answers.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';

const run = promisify(execFile);
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/neutral');

async function report(neutral: boolean) {
  const hook = neutral ? ['--import', join(FIXTURE, 'without-node-condition.mjs')] : [];
  const { stdout, stderr } = await run(
    TSX,
    ['--conditions=@mcp-fw/source', ...hook, join(FIXTURE, 'report.ts')],
    { cwd: REPO_ROOT },
  );
  const variants = new Map(
    [...stderr.matchAll(/^variant (#\S+) (\S+)$/gm)].map((m) => [m[1], m[2]] as const),
  );
  return { report: JSON.parse(stdout) as Record<string, unknown>, variants };
}

describe('the root entry without Node', () => {
  it('serves the same schemas and checks with the runtime-neutral variants as with Node’s', async () => {
    const [node, neutral] = await Promise.all([report(false), report(true)]);
    expect(node.variants.size).toBe(0);
    expect(neutral.variants).toEqual(
      new Map([
        ['#load-reflect-metadata', expect.stringMatching(/\/src\/decorators\/load-metadata\.ts$/)],
        ['#schema-libraries', expect.stringMatching(/\/src\/schema\/libraries\.ts$/)],
        ['#digest', expect.stringMatching(/\/src\/protocol\/input\/digest\.ts$/)],
        // Skill files' digests: @noble/hashes, where Node's variant loads node:crypto lazily.
        ['#sha256-hex', expect.stringMatching(/\/src\/registry\/sha256-hex\.ts$/)],
        // Skill frontmatter: the yaml package's ESM build, where Node's variant loads it lazily.
        ['#yaml', expect.stringMatching(/\/src\/registry\/yaml-parse\.ts$/)],
      ]),
    );
    expect(neutral.report).toEqual(node.report);

    const { reflect, list, results } = neutral.report as {
      reflect: boolean;
      list: { tools: { name: string }[] };
      results: { isError?: boolean; content: { text: string }[] }[];
    };
    expect(reflect).toBe(true);
    expect(list.tools.map((t) => t.name)).toEqual([
      'draft07',
      'draft2020',
      'zod4',
      'zodMini',
      'zod3',
    ]);
    // Each tool once with good arguments, once with bad ones (a format, a type).
    expect(results.map((r) => r.isError === true)).toEqual(
      Array.from({ length: 10 }, (_, i) => i % 2 === 1),
    );
    expect(results[1].content[0].text).toMatch(/email: must match format "email"/);
    expect(results[3].content[0].text).toMatch(/day: must match format "date"/);
  });

  it('Node loads no @noble/hashes at start-up: a skill file is hashed with node:crypto, when it is', async () => {
    const { stdout, stderr } = await run(
      TSX,
      [
        '--conditions=@mcp-fw/source',
        '--import',
        join(FIXTURE, 'record-loads.mjs'),
        join(FIXTURE, 'report.ts'),
      ],
      { cwd: REPO_ROOT },
    );
    const loaded = [...stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]!);
    // The hook saw the server start: core's own modules, skills among them.
    expect(loaded.some((url) => url.endsWith('/src/registry/skills.ts'))).toBe(true);
    expect(loaded.filter((url) => url.includes('@noble/hashes'))).toEqual([]);
    expect((JSON.parse(stdout) as { reflect: boolean }).reflect).toBe(true);
  });
});
