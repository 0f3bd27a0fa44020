import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { QUIET_TEST_TIMEOUT_MS } from './test-support/patience.ts';
import integration from './vitest.integration.ts';
import separate from './vitest.separate.ts';
import workspace from './vitest.workspace.ts';

/**
 * Which files a run takes (MCP_FW_TESTS): `npm test` leaves out the files of
 * vitest.integration.ts and vitest.separate.ts; `npm run test:integration` sets `integration` and
 * `npm run test:separate` sets `separate`, each for only its list; `all` takes every file (the
 * runs that pick files by name: scripts/test-under-load.mjs, scripts/node-matrix.mjs).
 */
const LISTS = { integration, separate } as const;
const mode = process.env.MCP_FW_TESTS ?? '';
if (mode !== '' && mode !== 'all' && !Object.hasOwn(LISTS, mode)) {
  throw new Error(
    `MCP_FW_TESTS=${mode} is no set of test files: use integration, separate or all, or leave it unset for npm test's`,
  );
}
for (const [name, list] of Object.entries(LISTS)) {
  for (const file of list) {
    if (
      !existsSync(join(import.meta.dirname, file)) ||
      !workspace.some((r) => file.startsWith(`${r}/`))
    ) {
      throw new Error(`vitest.${name}.ts lists ${file}, which is no test file of a project`);
    }
  }
}
const twice = integration.filter((file) => separate.includes(file));
if (twice.length > 0) {
  throw new Error(
    `${twice.join(', ')}: on both vitest.integration.ts and vitest.separate.ts; keep one`,
  );
}
/** The files this run takes, or undefined for npm test's (every file on neither list). */
const only: readonly string[] | undefined =
  mode === 'integration' || mode === 'separate' ? LISTS[mode] : undefined;
const leftOut: readonly string[] = mode === '' ? [...integration, ...separate] : [];

// Projects whose files share a worker process, one file after another, instead of a fresh
// process per file: vitest, the official clients and our packages are imported once per worker,
// not once per file. In these projects most files are small and in-process, where those imports
// cost as much CPU as the tests. CPU-seconds isolated → shared, all files passing shared, on this
// 2-core machine at a load average of 8-25: core (85 files) 295 → 178, auth (12) 54 → 35,
// client (16) 73 → 53, cli (30, most of its time in the processes it starts) 413 → 347. A project
// may join once its files pass shared: each closes every server, timer and fake clock it starts
// and leaves process.env and the working directory alone (a fake clock left on globalThis fails
// its file: test-support/real-timers-setup.ts).
const SHARED_WORKERS = ['packages/core', 'packages/auth', 'packages/client', 'packages/cli'];

/** One project per folder of vitest.workspace.ts, with the files of this run in or out. */
function project(root: string) {
  const mine = (files: readonly string[]) =>
    files.filter((file) => file.startsWith(`${root}/`)).map((file) => file.slice(root.length + 1));
  const tests = readdirSync(join(import.meta.dirname, root, 'test'), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts'));
  const listed = mine([...integration, ...separate]);
  if (listed.length > 0 && tests.length <= listed.length) {
    throw new Error(
      `vitest.integration.ts and vitest.separate.ts list every test of ${root}: npm test must keep some`,
    );
  }
  const test = only
    ? { include: mine(only) }
    : { exclude: [...configDefaults.exclude, ...mine(leftOut)] };
  const isolate = !SHARED_WORKERS.includes(root);
  return { extends: true as const, test: { root, name: basename(root), isolate, ...test } };
}

export default defineConfig({
  // Test files sit outside the packages' tsconfig, so oxc needs the decorator settings here.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  // Node-environment tests resolve through SSR: point our packages at their sources. Without the
  // bundlers' `module` condition, which picks OpenTelemetry builds that import without file
  // extensions (Node's ESM loader refuses them); tests resolve packages as Node does.
  ssr: {
    resolve: {
      conditions: ['@mcp-fw/source', ...defaultServerConditions.filter((c) => c !== 'module')],
    },
  },
  test: {
    projects: only
      ? workspace.filter((root) => only.some((file) => file.startsWith(`${root}/`))).map(project)
      : workspace.map(project),
    // Files run one per worker. vitest's default, one worker fewer than the cores, is a single
    // worker on 2 cores, which idles a core while a test waits for its child processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // For a quiet machine: patience-setup.ts stretches both by the load as each file starts.
    testTimeout: QUIET_TEST_TIMEOUT_MS,
    hookTimeout: QUIET_TEST_TIMEOUT_MS,
    // real-timers-setup.ts fails a file that leaves a fake clock on globalThis, which in a shared
    // worker would hold every later timer (and what it keeps) for good.
    setupFiles: [
      join(import.meta.dirname, 'test-support/patience-setup.ts'),
      join(import.meta.dirname, 'test-support/real-timers-setup.ts'),
    ],
    // What a passing test writes to the console is not shown: the servers under test warn about
    // their fixtures (tools without descriptions, the internal errors a test provokes), and the
    // official clients and oidc-provider warn about the test's own setup (an in-memory adapter,
    // OAuth storage without the issuer stamp). A failing test's output is shown in full.
    silent: 'passed-only',
  },
});
