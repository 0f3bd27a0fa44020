import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance, summaryOf } from './support/conformance-runner.ts';

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

function installed(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
}

// The official conformance suite against the fixture as a serverless Node function (start:serverless:
// dist/serverless.js, serverlessHandler's default export) on a local serverless platform
// (scripts/serverless-host.mjs): a router in front of three instances, requests round-robin,
// each instance recycled after a few requests and replaced by a cold one, legacy sessions in a
// real redis-server. Dozens of cold instance starts per suite run, minutes on 2 cores: a CI step
// of its own (vitest.separate.ts); packages/redis/test/serverless-handler.test.ts is the quick
// check in npm test.
beforeAll(() => {
  execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}, 600_000);

describe.skipIf(!installed('redis-server'))(
  'the conformance fixture as a serverless function',
  () => {
    it('passes the official conformance suite on cold, recycled serverless instances at --requirements 2026-07-28 and 2025-11-25 (sessions in Redis)', async () => {
      const { stdout, stderr } = await runConformance([
        '--runtime',
        'serverless',
        '--requirements-only',
      ]);
      const runs = summaryOf(stdout);

      // Every scored scenario of both wires passes, whichever instance, cold or not, takes each
      // request.
      expect(runs['requirements 2025-11-25']?.problems).toEqual([]);
      expect(runs['requirements 2025-11-25']?.header).toBe(
        'exit 0; scored: 30 passed, 0 failed; not scored: 3 run, 0 failing; Total: 82 passed, 0 failed',
      );
      // The tasks extension (not scored) is the one exception: a task's work lives in the memory of
      // the instance that started it, and the platform may recycle that instance before the task
      // ends (a serverless function keeps nothing running once it has answered); another instance
      // then reads the task as failed, as it should, instead of waiting for it. Any other failure
      // is one.
      expect(
        runs['requirements 2026-07-28']?.problems.filter(
          (line) => !line.startsWith('failed (not scored): ✗ tasks-'),
        ),
      ).toEqual([]);

      expect(runs['requirements 2026-07-28']?.header).toMatch(
        /^exit 0; scored: 37 passed, 0 failed; not scored: 13 run, \d+ failing; /,
      );

      // The platform did what makes it serverless: instances came and went during the runs, cold
      // ones took requests mid-session, and legacy sessions were served by several instances.
      const platform =
        /serverless host: (\d+) requests on (\d+) instances \((\d+) recycled.*?\); (\d+) requests were a cold instance's first; (\d+) of (\d+) legacy sessions served by more than one instance/.exec(
          stderr,
        );
      expect(platform, stderr.slice(-4000)).not.toBeNull();
      const [requests, instances, recycled, cold, spread, sessions] = platform!
        .slice(1)
        .map(Number);
      expect(instances).toBeGreaterThan(10);
      // Every instance started replaced one recycled (none died), but for the three first and the
      // replacements still starting when the platform stopped.
      expect(instances - 3 - recycled).toBeGreaterThanOrEqual(0);
      expect(instances - 3 - recycled).toBeLessThanOrEqual(3);
      expect(cold).toBeGreaterThan(10);
      expect(requests).toBeGreaterThan(cold);
      // Most sessions (a session of one initialize and nothing else stays on one instance).
      expect(spread).toBeGreaterThan(sessions / 2);
    }, 1_500_000);
  },
);
