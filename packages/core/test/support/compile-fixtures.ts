import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths.ts';

const run = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');
const scratch: string[] = [];

/**
 * Compiles test fixtures with the repository's tsc, with legacy decorators (and their metadata)
 * or TC39 ones, into a scratch directory under node_modules so that zod and @mcp-fw/core resolve
 * from the output. `noCheck` compiles as `mcp-fw dev` does. Returns the output directory, whose
 * layout follows `packages/core` (core's sources come in through the @mcp-fw/source condition).
 */
export async function compileFixtures(
  name: string,
  files: readonly string[],
  options: { experimentalDecorators: boolean; noCheck?: boolean },
): Promise<string> {
  const cache = join(REPO_ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, `mcp-fw-${name}-`));
  scratch.push(dir);
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(REPO_ROOT, 'tsconfig.base.json'),
      compilerOptions: {
        rootDir: join(REPO_ROOT, 'packages/core'),
        outDir: join(dir, 'out'),
        composite: false,
        incremental: false,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        experimentalDecorators: options.experimentalDecorators,
        emitDecoratorMetadata: options.experimentalDecorators,
      },
      files,
    }),
  );
  await run(TSC, ['-p', tsconfig, ...(options.noCheck ? ['--noCheck'] : [])], { cwd: REPO_ROOT });
  // node_modules is a package boundary: mark the output as ES modules, as tsc emitted them.
  writeFileSync(join(dir, 'out/package.json'), '{"type":"module"}\n');
  return join(dir, 'out');
}

/** Removes what {@link compileFixtures} wrote (call it in `afterAll`). */
export function removeCompiledFixtures(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}
