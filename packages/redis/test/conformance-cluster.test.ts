import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAPROXY, REDIS_SERVER } from './support/processes.ts';

const RUNNER = fileURLToPath(new URL('../scripts/conformance-cluster.mjs', import.meta.url));
const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

// The official conformance suite's scored sets, through HAProxy in front of three instances of
// the conformance fixture on one Redis: every scenario passes as it does against one process.
describe.skipIf(REDIS_SERVER === undefined || HAPROXY === undefined)(
  'conformance across a cluster',
  () => {
    beforeAll(() => {
      execFileSync(process.execPath, [TOOLCHAIN, 'conformance'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }, 600_000);

    it('scores 30/30 for 2025-11-25, 37/37 for 2026-07-28 and every scenario of --suite all (tasks included) through a round-robin balancer', async () => {
      const { code, stdout } = await new Promise<{ code: number; stdout: string }>((done) => {
        execFile(process.execPath, [RUNNER], { maxBuffer: 64 * 1024 * 1024 }, (error, out) =>
          done({ code: error ? 1 : 0, stdout: out }),
        );
      });
      const summary = stdout.slice(stdout.lastIndexOf('=== summary ==='));
      expect(summary).toContain('[requirements 2025-11-25] exit 0; scored 30/30 passed');
      expect(summary).toContain('[requirements 2026-07-28] exit 0; scored 37/37 passed');
      expect(summary).toMatch(/\[suite all\] exit 0; scored (\d+)\/\1 passed/);
      expect(code).toBe(0);
    }, 600_000);
  },
);
