import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';

// The official conformance suite's three Skills scenarios (SEP-2640) against the fixture's
// skills/ folder, at both wires, check by check. Six suite processes (each starts Node 22 and the
// suite) take about a minute on 2 cores, so this file runs beside conformance-suite.test.ts in
// vitest.separate.ts; packages/core/test/skills*.test.ts cover the same methods in npm test.
const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));
const SCENARIOS = [
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
];

let suite: { node: string; suite: string };
let fixture: FixtureProcess;

beforeAll(async () => {
  // Installs Node 22 and the suite into .cache/ on first use (announced on stderr).
  const path = execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  }).trim();
  const { ensureConformanceSuite } = (await import(TOOLCHAIN)) as {
    ensureConformanceSuite(): { node: string; suite: string };
  };
  suite = ensureConformanceSuite();
  expect(suite.suite).toBe(path);
  fixture = await startFixture();
}, 600_000);
afterAll(() => fixture?.stop());

/** One scenario's checks: `[check id, status]`, and the output to show when one is off. */
function run(
  scenario: string,
  extra: string[] = [],
): Promise<{ checks: string[][]; output: string }> {
  return new Promise((resolve) => {
    execFile(
      suite.node,
      [suite.suite, 'server', '--url', fixture.url.href, '--scenario', scenario, ...extra],
      { maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout, stderr) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its output
        const output = `${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
        const checks = [...output.matchAll(/^\S+ \[([\w-]+)\s*\] (\w+)/gm)].map((m) => [
          m[1]!,
          m[2]!,
        ]);
        resolve({ checks, output });
      },
    );
  });
}

it('the Skills scenarios sep-2640-skills-directory, -enumeration and -manifest pass at 2026-07-28, none skipped', async () => {
  const results = await Promise.all(SCENARIOS.map((scenario) => run(scenario)));
  for (const [index, { checks, output }] of results.entries()) {
    expect(checks.length, `${SCENARIOS[index]}\n${output}`).toBeGreaterThan(5);
    expect(
      checks.filter(([, status]) => status !== 'SUCCESS'),
      `${SCENARIOS[index]}\n${output}`,
    ).toEqual([]);
  }
  // The suite's own counts: 7 directory checks, 32 enumeration checks, 6 manifest checks.
  expect(results.map((r) => r.checks.length)).toEqual([7, 32, 6]);
}, 60_000);

it('the Skills scenarios pass at the 2025-11-25 wire too, only the 2026-07-28 cache checks not applicable', async () => {
  const results = await Promise.all(
    SCENARIOS.map((scenario) => run(scenario, ['--spec-version', '2025-11-25', '--force'])),
  );
  const off = results.flatMap(({ checks }) => checks.filter(([, status]) => status !== 'SUCCESS'));
  expect(off, results.map((r) => r.output).join('\n')).toEqual([
    ['sep-2640-skills-list-cache-attributes', 'SKIPPED'],
    ['sep-2640-skills-get-cache-attributes', 'SKIPPED'],
  ]);
}, 60_000);
