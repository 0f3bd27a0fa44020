import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite, runClientScenario, type Outcome } from './support/conformance-suite.ts';

// The official conformance suite's client auth scenarios (0.2.0-alpha.12) against our client's
// OAuth, at each revision they apply to (2025-03-26's two are its fallbacks for servers without
// protected resource metadata), and the auth extension scenarios. Minutes of CPU, so it
// runs in its own CI step (vitest.separate.ts); auth-attacks and auth-oidc-provider stay in npm test.

const AT_BOTH = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

/** The auth scenarios of each revision (`list --client --spec-version`). */
const SCENARIOS: Record<string, readonly string[]> = {
  '2025-03-26': [
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
  ],
  '2025-11-25': AT_BOTH,
  '2026-07-28': [
    ...AT_BOTH,
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/authorization-server-migration',
    'auth/iss-supported',
    'auth/iss-not-advertised',
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
  ],
};

/** Auth extension scenarios (no revision): run as the suite runs them. */
const EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

let suite: { node: string; suite: string };
let results: string;

beforeAll(() => {
  suite = conformanceSuite();
  results = mkdtempSync(join(tmpdir(), 'mcp-fw-client-auth-conformance-'));
}, 600_000);

afterAll(() => rmSync(results, { recursive: true, force: true }));

/** Runs `scenarios` two at a time; the outcome of each. */
async function runAll(scenarios: readonly string[], specVersion?: string) {
  const outcomes = new Map<string, Outcome>();
  const queue = [...scenarios];
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift())
        outcomes.set(next, await runClientScenario(suite, next, specVersion, results));
    }),
  );
  return outcomes;
}

function summary(outcomes: Map<string, Outcome>) {
  const counts: Record<string, string> = {};
  const failures: Record<string, string> = {};
  for (const [scenario, o] of outcomes) {
    counts[scenario] = `${o.passed}/${o.total}, ${o.failed} failed, ${o.warnings} warnings`;
    if (o.failed !== 0 || o.warnings !== 0 || o.total === 0)
      failures[scenario] = o.output.slice(-3000);
  }
  return { counts, failures };
}

describe.each(Object.entries(SCENARIOS))(
  'the official client auth scenarios at %s',
  (specVersion, scenarios) => {
    it(`passes every auth scenario of the revision (${scenarios.length})`, async () => {
      const { counts, failures } = summary(await runAll(scenarios, specVersion));
      expect(failures).toEqual({});
      for (const [scenario, line] of Object.entries(counts))
        expect(line, scenario).toMatch(/^(\d+)\/\1, 0 failed, 0 warnings$/);
      console.error(`client auth conformance at ${specVersion}: ${JSON.stringify(counts)}`);
    }, 900_000);
  },
);

describe('the official client auth scenarios outside the two revisions', () => {
  it(`passes the auth extension scenarios: client credentials, enterprise-managed, DPoP, workload identity (${EXTENSIONS.length})`, async () => {
    const { counts, failures } = summary(await runAll(EXTENSIONS));
    expect(failures).toEqual({});
    console.error(`client auth extensions: ${JSON.stringify(counts)}`);
  }, 300_000);
});
