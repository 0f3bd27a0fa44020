import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The official conformance suite in server mode, run THROUGH the proxy against the conformance
// fixture, in the eras-bridging directions (scripts/conformance-through-proxy.mjs). Slow (three
// suite runs): listed in vitest.separate.ts.

const RUNNER = fileURLToPath(new URL('../scripts/conformance-through-proxy.mjs', import.meta.url));
const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

let output = '';
// Where the suite writes each check's details (the runner's OUT), per run.
const details = mkdtempSync(join(tmpdir(), 'conformance-through-proxy-'));

beforeAll(async () => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  output = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [RUNNER],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, OUT: details } },
      (_error, stdout) => resolve(stdout),
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

/** The failed checks of a scenario in a run (`requirements-upstream`), with their messages. */
function failedChecks(run: string, scenario: string): { id: string; errorMessage?: string }[] {
  const dir = join(details, run);
  return readdirSync(dir)
    .filter((name) => name.startsWith(`server-${scenario}-`))
    .flatMap((name) =>
      (
        JSON.parse(readFileSync(join(dir, name, 'checks.json'), 'utf8')) as {
          id: string;
          status: string;
          errorMessage?: string;
        }[]
      ).filter((check) => check.status === 'FAILURE'),
    );
}

/**
 * Whether the only failures of server-stateless are its two checks that give a call's stream
 * 500 and 600 ms for a first frame and saw none: the first stateless calls with a given set of
 * capabilities open an upstream session, which a loaded 2-core machine can make slower than
 * that. Any other failure of the scenario (a log without logLevel, a request on the stream…)
 * is still one.
 */
function onlyFirstFrameDeadlines(run: string): boolean {
  const failures = failedChecks(run, 'server-stateless');
  return (
    failures.length > 0 &&
    failures.every(
      (check) =>
        (check.id === 'sep-2575-http-server-no-independent-requests-on-stream' &&
          /^Failed to receive/.test(check.errorMessage ?? '')) ||
        (check.id === 'sep-2575-server-no-log-without-loglevel' &&
          /dropped or failed to yield/.test(check.errorMessage ?? '')),
    )
  );
}

describe('the conformance suite through the proxy', () => {
  it('a 2025-11-25 client through the proxy to a 2026-07-28 server passes every scenario', () => {
    const { header, failed } = run('requirements 2025-11-25 → 2026-07-28');
    expect(header).toMatch(/^exit 0;/);
    expect(failed).toEqual([]);
  });

  it('a 2026-07-28 client through the proxy to a 2025-06-18 server passes every scored scenario; only the tasks extension fails, which a 2025-06-18 server cannot offer', () => {
    const { header, failed: all } = run('requirements 2026-07-28 → 2025-06-18');
    // Every scored scenario passed (the input-round ones included: an mcp-fw legacy upstream
    // names each question's key in _meta, and the caller's capabilities are declared upstream,
    // so the fixture asks what this caller can answer) — but for the two first-frame deadlines
    // of server-stateless when the machine is loaded (see onlyFirstFrameDeadlines).
    const late =
      all.includes('server-stateless') && onlyFirstFrameDeadlines('2026-07-28-2025-06-18');
    const failed = late ? all.filter((name) => name !== 'server-stateless') : all;
    expect(header).toMatch(late ? /^exit 1;/ : /^exit 0;/);
    // Expected failures, by design of the bridge, not skipped: the tasks extension (not scored).
    // A 2025-06-18 server has no tasks: its tools carry no execution.taskSupport and it answers
    // no tasks/* method, so nothing tells the proxy that failing_job MUST create a task, or that
    // a caller without the extension MUST get -32021 for it. (Through a 2025-11-25 or 2026-07-28
    // upstream, task tools are served as tasks: see tasks.test.ts.)
    // (tasks-status-notifications is skipped by the suite itself, so it passes.)
    expect(failed).toEqual([
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ]);
  });

  it('the tasks extension through the proxy: a 2026-07-28 client to a 2025-11-25 server with tasks passes every scenario but one that a 2025-11-25 task cannot do', () => {
    const { header, failed: all } = run('requirements 2026-07-28 → 2025-11-25');
    const late =
      all.includes('server-stateless') && onlyFirstFrameDeadlines('2026-07-28-2025-11-25');
    const failed = late ? all.filter((name) => name !== 'server-stateless') : all;
    expect(header).toMatch(late ? /^exit 1;/ : /^exit 0;/);
    // Expected failure, by design: tasks-mrtr-composition asks in an input round of the request
    // and only then creates the task (a deferred task tool). A 2025-11-25 server starts a task
    // tool's call as a task at once, so round 1 through it is already the task.
    expect(failed).toEqual(['tasks-mrtr-composition']);
  });
});
