import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemasFreshness } from '@mcp-fw/typescript/freshness';
import { afterAll, expect, it } from 'vitest';

const EXAMPLE = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(EXAMPLE, '../..');
const API = join(EXAMPLE, 'src/api');
const tmp = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const generated = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.gen.ts'))
    .sort();

it('the committed src/api regenerates byte-identically with `npm run openapi`', () => {
  // The package's own script, run by the built CLI in a copy of the example's layout.
  const script = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')).scripts
    .openapi as string;
  expect(script).toMatch(/^mcp-fw openapi petstore\.yaml --out src\/api /);
  copyFileSync(join(EXAMPLE, 'petstore.yaml'), join(tmp, 'petstore.yaml'));
  const run = spawnSync(
    'sh',
    [
      '-c',
      script.replace(
        /^mcp-fw /,
        `"${process.execPath}" "${join(REPO, 'packages/cli/bin/mcp-fw.js')}" `,
      ),
    ],
    { cwd: tmp, encoding: 'utf8' },
  );
  expect(run.stderr).toContain('Wrote src/api');
  expect(run.status).toBe(0);
  const fresh = join(tmp, 'src/api');
  expect(generated(fresh)).toEqual(generated(API));
  expect(generated(API)).toEqual([
    'client.gen.ts',
    'pets.gen.ts',
    'providers.gen.ts',
    'types.gen.ts',
  ]);
  for (const file of generated(API))
    expect(readFileSync(join(fresh, file), 'utf8'), file).toBe(
      readFileSync(join(API, file), 'utf8'),
    );
  // The subclass a fresh run writes; the committed one is that plus this example's edit.
  expect(readFileSync(join(fresh, 'pets.ts'), 'utf8')).toContain(
    'export class Pets extends PetsGenerated {}',
  );
  expect(readFileSync(join(API, 'pets.ts'), 'utf8')).toContain(
    'export class Pets extends PetsGenerated {',
  );
});

it('the generated files are biome-formatted as they are written', () => {
  const biome = join(REPO, 'node_modules/@biomejs/biome/bin/biome');
  for (const file of generated(API)) {
    const text = readFileSync(join(API, file), 'utf8');
    // *.gen.ts are excluded from the repository's check; format each under an ordinary name.
    const run = spawnSync(
      process.execPath,
      [biome, 'format', `--stdin-file-path=${file.replace('.gen.ts', '-gen.ts')}`],
      {
        cwd: REPO,
        input: text,
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout, file).toBe(text);
  }
});

// The stamp check (hashes of the sources the module was read from), not a fresh extraction: the
// compiler run costs half a minute on a loaded machine, and the official-clients test already
// serves these schemas; packages/openapi/test/codegen.test.ts extracts generated classes afresh.
it('src/schemas.gen.ts was read from the current classes (its source stamp is fresh)', () => {
  expect(schemasFreshness(join(EXAMPLE, 'src/schemas.gen.ts'))).toEqual({ state: 'fresh' });
});
