import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite, runClientScenario } from './support/conformance-suite.ts';

// The official conformance suite (0.2.0-alpha.12) in client mode, run against our client
// (fixtures/conformance-client.mjs, on the built @mcp-fw/client). Each scenario runs on its
// own, at its revision's wire: the suite's parallel `--suite` runs time out on a busy machine.
// Not run here: the auth scenarios (auth-conformance.test.ts, a CI step of its own). The four
// Skills-extension scenarios run as the suite runs extensions (no --spec-version).

/** Every client scenario that is neither auth nor an extension, by the revision it applies at. */
const SCENARIOS = {
  '2025-11-25': [
    'initialize',
    'tools_call',
    'elicitation-sep1034-client-defaults',
    'sse-retry',
    'json-schema-2020-12-preservation',
  ],
  '2026-07-28': [
    'tools_call',
    'request-metadata',
    'sep-2322-client-request-state',
    'http-standard-headers',
    'http-custom-headers',
    'http-invalid-tool-headers',
    'json-schema-ref-no-deref',
    'json-schema-2020-12-preservation',
  ],
} as const;

/** The Skills extension's client scenarios (SEP-2640): no prefetch, and each verification. */
const SKILLS = [
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];

let suite: { node: string; suite: string };
let results: string;

// The suite and its Node 22 are installed into .cache/ on first use (announced on stderr).
beforeAll(() => {
  suite = conformanceSuite();
  results = mkdtempSync(join(tmpdir(), 'mcp-fw-client-conformance-'));
}, 600_000);

afterAll(() => rmSync(results, { recursive: true, force: true }));

describe.each(Object.entries(SCENARIOS))(
  'the official client conformance suite at %s',
  (specVersion, scenarios) => {
    it(`passes every non-auth, non-extension client scenario (${scenarios.length})`, async () => {
      const outcomes: Record<string, string> = {};
      const failures: Record<string, string> = {};
      for (const scenario of scenarios) {
        const outcome = await runClientScenario(suite, scenario, specVersion, results);
        outcomes[scenario] = `${outcome.passed}/${outcome.total}, ${outcome.failed} failed`;
        if (outcome.failed !== 0 || outcome.total === 0)
          failures[scenario] = outcome.output.slice(-3000);
      }
      expect(failures).toEqual({});
      // Every check of every scenario passed; the counts are what the suite reported.
      for (const [scenario, counts] of Object.entries(outcomes))
        expect(counts, scenario).toMatch(/^(\d+)\/\1, 0 failed$/);
      console.error(`client conformance at ${specVersion}: ${JSON.stringify(outcomes)}`);
    }, 600_000);
  },
);

describe('the official client conformance suite, Skills extension', () => {
  it(`passes the Skills-client scenarios: no prefetch, and verification of digest, size and frontmatter (${SKILLS.length})`, async () => {
    const outcomes: Record<string, string> = {};
    const failures: Record<string, string> = {};
    // Two at a time: each run is mostly the suite's and the client's start-up.
    const queue = [...SKILLS];
    await Promise.all(
      [0, 1].map(async () => {
        for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
          const outcome = await runClientScenario(suite, scenario, undefined, results);
          outcomes[scenario] =
            `${outcome.passed}/${outcome.total}, ${outcome.failed} failed, ${outcome.warnings} warnings`;
          if (outcome.failed !== 0 || outcome.total === 0 || outcome.warnings !== 0)
            failures[scenario] = outcome.output.slice(-3000);
        }
      }),
    );
    expect(failures).toEqual({});
    // SKIPPED checks (a client that never listed) would not count as passed: each is 1/1.
    for (const [scenario, counts] of Object.entries(outcomes))
      expect(counts, scenario).toMatch(/^(\d+)\/\1, 0 failed, 0 warnings$/);
    console.error(`client Skills conformance: ${JSON.stringify(outcomes)}`);
  }, 300_000);
});
