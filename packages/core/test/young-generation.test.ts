import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.ts';

// A process that imports the stdio entry, optionally serves with an option, then allocates
// ~200 MB of short-lived objects while keeping a rolling window of survivors, which is what
// makes V8 grow its young generation; it reports the young generation's size at the end.
const STDIO = pathToFileURL(join(REPO_ROOT, 'packages/core/dist/stdio.js')).href;
const CORE = pathToFileURL(join(REPO_ROOT, 'packages/core/dist/index.js')).href;
const SERVE = pathToFileURL(join(REPO_ROOT, 'packages/core/dist/serve.js')).href;
const script = (serveOptions: string | undefined) => `
import { getHeapSpaceStatistics } from 'node:v8';
import { serveStdio } from '${STDIO}';
import { serveFromArgs } from '${SERVE}';
import { createServer } from '${CORE}';
${serveOptions === undefined ? '' : serveOptions === 'http' ? `const http = await serveFromArgs(createServer({ name: 'heap', version: '1' }), ['--http', '--port', '0']); await http.close();` : `serveStdio(createServer({ name: 'heap', version: '1' }), { ${serveOptions}, exit: false });`}
const window = new Array(20000);
for (let i = 0; i < 2000000; i++) window[i % window.length] = { i, text: 'x' + i, list: [i, i + 1] };
const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
process.stderr.write('YOUNG ' + young + '\\n');
process.exit(0);
`;

function youngGenerationBytes(serveOptions: string | undefined, nodeArgs: string[] = []): number {
  const run = spawnSync(
    process.execPath,
    [...nodeArgs, '--input-type=module', '-e', script(serveOptions)],
    {
      encoding: 'utf8',
      input: '',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const match = /YOUNG (\d+)/.exec(run.stderr);
  if (!match) throw new Error(`no size reported (status ${run.status}): ${run.stderr}`);
  expect(run.stdout).toBe('');
  return Number(match[1]);
}

const MiB = 1024 * 1024;

describe("V8's young generation: the framework sets no flag unless asked", () => {
  it('leaves it to V8 when the stdio entry is imported and when serveStdio runs by default', () => {
    expect(youngGenerationBytes(undefined)).toBeGreaterThan(8 * MiB);
    expect(youngGenerationBytes('maxMessageBytes: 4096')).toBeGreaterThan(8 * MiB);
    expect(youngGenerationBytes("youngGeneration: 'v8-default'")).toBeGreaterThan(8 * MiB);
  });

  it("keeps it compact with youngGeneration: 'compact' (the opt-in)", () => {
    // Near its starting size (a few MiB) on a quiet machine; V8 (Node 24's more than Node 20's)
    // still grows it somewhat when the process is starved of CPU, never to V8's own size.
    const grown = youngGenerationBytes(undefined);
    const compact = youngGenerationBytes("youngGeneration: 'compact'");
    expect(compact).toBeLessThanOrEqual(Math.min(16 * MiB, grown / 2));
  });

  it('leaves it to V8 when serveFromArgs serves HTTP', () => {
    expect(youngGenerationBytes('http')).toBeGreaterThan(8 * MiB);
  });

  it('leaves node flags of the user alone, even with the opt-in', () => {
    const compact = "youngGeneration: 'compact'";
    expect(youngGenerationBytes(compact, ['--max-semi-space-size=16'])).toBeGreaterThan(8 * MiB);
  });
});

describe('start-up cost of the opt-in (issue 40)', () => {
  // node:v8 pulls in heap utilities and streams; a stdio server that never opts in should not
  // load it while it starts (process.moduleLoadList names every built-in module loaded so far).
  const loaded = (serve: string) => {
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { serveStdio } from '${STDIO}'; import { createServer } from '${CORE}';
${serve}
process.stderr.write('V8 ' + process.moduleLoadList.includes('NativeModule v8') + '\\n');
process.exit(0);`,
      ],
      { encoding: 'utf8', input: '', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const match = /V8 (true|false)/.exec(run.stderr);
    if (!match) throw new Error(`no answer (status ${run.status}): ${run.stderr}`);
    return match[1] === 'true';
  };

  it('a stdio server that does not opt in never loads node:v8', () => {
    expect(loaded(`serveStdio(createServer({ name: 'v8', version: '1' }), { exit: false });`)).toBe(
      false,
    );
    expect(
      loaded(
        `serveStdio(createServer({ name: 'v8', version: '1' }), { youngGeneration: 'compact', exit: false });`,
      ),
    ).toBe(true);
  });
});
