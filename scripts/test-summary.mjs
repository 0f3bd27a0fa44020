#!/usr/bin/env node
// Adds up vitest JSON result files into one closing line, `N passed, N failed`.
//
//   node scripts/test-summary.mjs .vitest-results.json .vitest-results-node22.json …
//
// A test file that failed outside any test (an import error, a failing hook) counts as one
// failure: vitest's own counts leave it out, which once let a run with 30 files stopped at import
// report "307 passed, 0 failed". A missing file (the run never finished) counts as one failure
// too. Exits 1 if anything failed.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The passed and failed counts of one vitest JSON results file. */
export function countsOf(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, note: `${file} was not written` };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'),
  );
  const failed = report.numFailedTests + brokenFiles.length;
  const note = brokenFiles.length
    ? `${brokenFiles.length} test file(s) failed outside any test`
    : '';
  return { passed: report.numPassedTests, failed, note };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let passed = 0;
  let failed = 0;
  for (const file of process.argv.slice(2)) {
    const counts = countsOf(file);
    if (counts.note) process.stdout.write(`${file}: ${counts.note}\n`);
    passed += counts.passed;
    failed += counts.failed;
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}
