// Type-checks a generated project as a user's project sees the packages: their built types (no
// `@mcp-fw/source` condition), with the repository's compiler options and no output.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPO = join(import.meta.dirname, '../../../..');

/** Writes `root/tsconfig.json` over `root/src` and runs tsc on it: its output and exit status. */
export function typeCheckProject(root: string): { output: string; status: number | null } {
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(root, join(REPO, 'tsconfig.base.json')),
      compilerOptions: {
        customConditions: [],
        noEmit: true,
        composite: false,
        declaration: false,
        declarationMap: false,
      },
      include: ['src'],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root],
    { encoding: 'utf8' },
  );
  return { output: tsc.stdout + tsc.stderr, status: tsc.status };
}
