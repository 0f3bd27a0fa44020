import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The official conformance suite in server mode, run THROUGH the proxy against the conformance
// fixture, in the eras-bridging directions (scripts/conformance-through-proxy.mjs). Slow (two
// suite runs): listed in vitest.separate.ts.

const RUNNER = fileURLToPath(new URL('../scripts/conformance-through-proxy.mjs', import.meta.url));
const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

let output = '';

beforeAll(async () => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  output = await new Promise<string>((resolve) => {
    execFile(process.execPath, [RUNNER], { maxBuffer: 64 * 1024 * 1024 }, (_error, stdout) =>
      resolve(stdout),
    );
  });
}, 600_000);

/** A run's summary line and the scenarios it lists as failed. */
function run(label: string): { header: string; failed: string[] } {
  const at = output.lastIndexOf(`[${label}] `);
  if (at < 0) return { header: `no summary for ${label}`, failed: [] };
  const [header, ...rest] = output.slice(at + label.length + 3).split('\n');
  const failed: string[] = [];
  for (const line of rest) {
    const m = /^ {2}✗ ([\w./-]+):/.exec(line);
    if (!m) break;
    failed.push(m[1]);
  }
  return { header, failed };
}

describe('the conformance suite through the proxy', () => {
  it('a 2025-11-25 client through the proxy to a 2026-07-28 server passes every scored scenario', () => {
    const { header, failed } = run('requirements 2025-11-25 → 2026-07-28');
    expect(header).toMatch(/^exit 0;/);
    // json-schema-2020-12 is pending (not scored).
    expect(failed).toEqual(['json-schema-2020-12']);
  });

  it('a 2026-07-28 client through the proxy to a 2025-06-18 server fails only where a legacy upstream cannot say what the suite asks', () => {
    const { header, failed } = run('requirements 2026-07-28 → 2025-06-18');
    expect(header).toMatch(/^exit \d+; scenarios: \d+ passed/);
    // Known gaps, each a limit of bridging to a legacy upstream or a part not forwarded yet:
    // - input-required-*: the suite checks the inputRequests keys the fixture chose
    //   (`user_name`); a legacy upstream's elicitation/create carries no key, so the proxy's
    //   are its own (`input_0`).
    // - server-stateless: progress and log frames on the request stream (not found yet).
    // - tasks-* (the tasks extension, not scored): tasks are not forwarded yet.
    // - json-schema-2020-12: pending, not scored.
    const known = /^(input-required-result-|tasks-|server-stateless$|json-schema-2020-12$)/;
    expect(failed.filter((name) => !known.test(name))).toEqual([]);
  });
});
