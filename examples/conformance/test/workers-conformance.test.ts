import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance, summaryOf } from './support/conformance-runner.ts';

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

// The official conformance suite against the fixture as a Cloudflare module worker in real
// workerd (start:workers: 2026-07-28 in the Worker, legacy sessions in Durable Objects): the
// scored sets of both wires. Two suite runs, about half a minute on 2 cores: a CI step of its own
// (vitest.separate.ts); workers.test.ts is the quick check in npm test.
beforeAll(() => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}, 600_000);

describe('the conformance fixture on Cloudflare Workers (workerd)', () => {
  it('passes the official conformance suite in workerd at --requirements 2026-07-28 and 2025-11-25, the tasks extension included', async () => {
    const { code, stdout, stderr } = await runConformance([
      '--runtime',
      'workers',
      '--requirements-only',
    ]);
    const runs = summaryOf(stdout);
    expect(runs['requirements 2025-11-25']?.header).toBe(
      'exit 0; scored: 30 passed, 0 failed; not scored: 3 run, 0 failing; Total: 82 passed, 0 failed',
    );
    expect(runs['requirements 2025-11-25'].problems).toEqual([]);
    // Every 2026-07-28 scenario passes, the tasks extension's (not scored) included: a task's work
    // outlives the request that started it, so the Worker runs tasks in a Durable Object
    // (@mcp-fw/cloudflare, task-route.ts), where later requests reach it.
    expect(runs['requirements 2026-07-28']?.header).toBe(
      'exit 0; scored: 37 passed, 0 failed; not scored: 13 run, 0 failing; Total: 196 passed, 0 failed',
    );
    expect(runs['requirements 2026-07-28'].problems).toEqual([]);
    // Listen streams are held in a Durable Object and written by the requests that change the
    // lists (@mcp-fw/cloudflare, listen-route.ts): workerd refuses no cross-request write.
    expect(stderr).not.toMatch(/different request context|code had hung/);
    expect(code, `${stdout.slice(-4000)}\n${stderr}`).toBe(0);
  }, 240_000);
});
