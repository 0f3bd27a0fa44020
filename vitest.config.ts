import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { QUIET_TEST_TIMEOUT_MS } from './test-support/patience.ts';
import separate from './vitest.separate.ts';
import workspace from './vitest.workspace.ts';

// `npm test` runs every file but those of vitest.separate.ts; `npm run test:separate` sets
// MCP_FW_TESTS=separate and runs only those.
const onlySeparate = process.env.MCP_FW_TESTS === 'separate';
for (const file of separate) {
  if (
    !existsSync(join(import.meta.dirname, file)) ||
    !workspace.some((r) => file.startsWith(`${r}/`))
  ) {
    throw new Error(`vitest.separate.ts lists ${file}, which is no test file of a project`);
  }
}

// Projects whose files share a worker process, one file after another, instead of a fresh
// process per file: vitest, the official clients and our packages are imported once per worker,
// not once per file. In these projects most files are small and in-process, where those imports
// cost as much CPU as the tests. CPU-seconds isolated → shared, all files passing shared, on this
// 2-core machine at a load average of 8-25: core (85 files) 295 → 178, auth (12) 54 → 35,
// client (16) 73 → 53, cli (30, most of its time in the processes it starts) 413 → 347. A project
// may join once its files pass shared: each closes every server, timer and fake clock it starts
// and leaves process.env and the working directory alone.
const SHARED_WORKERS = ['packages/core', 'packages/auth', 'packages/client', 'packages/cli'];

/** One project per folder of vitest.workspace.ts, with its separate files in or out. */
function project(root: string) {
  const own = separate.filter((file) => file.startsWith(`${root}/`));
  const files = own.map((file) => file.slice(root.length + 1));
  const tests = readdirSync(join(import.meta.dirname, root, 'test'), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts'));
  if (own.length > 0 && tests.length <= own.length) {
    throw new Error(`vitest.separate.ts lists every test of ${root}: npm test must keep some`);
  }
  const test = onlySeparate
    ? { include: files }
    : { exclude: [...configDefaults.exclude, ...files] };
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
    projects: onlySeparate
      ? workspace
          .filter((root) => separate.some((file) => file.startsWith(`${root}/`)))
          .map(project)
      : workspace.map(project),
    // Files run one per worker. vitest's default, one worker fewer than the cores, is a single
    // worker on 2 cores, which idles a core while a test waits for its child processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // For a quiet machine: patience-setup.ts stretches both by the load as each file starts.
    testTimeout: QUIET_TEST_TIMEOUT_MS,
    hookTimeout: QUIET_TEST_TIMEOUT_MS,
    setupFiles: [join(import.meta.dirname, 'test-support/patience-setup.ts')],
    // What a passing test writes to the console is not shown: the servers under test warn about
    // their fixtures (tools without descriptions, the internal errors a test provokes), and the
    // official clients and oidc-provider warn about the test's own setup (an in-memory adapter,
    // OAuth storage without the issuer stamp). A failing test's output is shown in full.
    silent: 'passed-only',
  },
});
