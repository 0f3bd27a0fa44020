// The API reference is TypeDoc over every public entry point, and it must fail on an export
// without documentation: checked here on the real packages (in npm test, before any build of
// the site) and on a scratch package with one undocumented export.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../packages/core/test/support/paths.ts';
import { apiReference, entryPoints } from '../scripts/api.mjs';

describe('the API reference', () => {
  it('documents every export of every public entry point', async () => {
    const { entries, problems } = await apiReference({ write: false });
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        '@mcp-fw/core',
        '@mcp-fw/core/stdio',
        '@mcp-fw/core/testing',
        '@mcp-fw/auth',
      ]),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('fails on an undocumented export, naming it', async () => {
    const root = join(REPO_ROOT, '.cache', 'api-reference-check');
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, 'packages', 'demo', 'src'), { recursive: true });
    writeFileSync(
      join(root, 'packages', 'demo', 'package.json'),
      JSON.stringify({
        name: '@mcp-fw/demo',
        exports: { '.': { '@mcp-fw/source': './src/index.ts', default: './dist/index.js' } },
      }),
    );
    writeFileSync(
      join(root, 'packages', 'demo', 'src', 'index.ts'),
      '/** Says hello. */\nexport function hello(): string {\n  return "hello";\n}\n\nexport const undocumentedLimit = 3;\n',
    );
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
        },
        include: ['packages/*/src'],
      }),
    );
    expect(entryPoints(root).map((e) => e.name)).toEqual(['@mcp-fw/demo']);
    const { problems } = await apiReference({
      root,
      tsconfig: join(root, 'tsconfig.json'),
      write: false,
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /undocumentedLimit \(Variable\), defined in @mcp-fw\/demo\/src\/index\.ts, does not have any documentation/,
      ),
    ]);
  }, 120_000);
});
