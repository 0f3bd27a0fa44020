import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../core/test/support/paths.ts';

const TSC = `${REPO_ROOT}/node_modules/typescript/bin/tsc`;

// corpus/typed.ts marks each mismatch with @ts-expect-error: tsc passes only when every one of
// them meets its error (an unused one is TS2578) and the agreeing methods compile.
describe('typed @Tool / @Prompt signatures: a schema the method does not accept is a compile error', () => {
  it.each(['tsconfig.typed.json', 'tsconfig.typed-standard.json'])('tsc -p corpus/%s', (config) => {
    const project = fileURLToPath(new URL(`corpus/${config}`, import.meta.url));
    const run = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
