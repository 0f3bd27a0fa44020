import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The official conformance suite (0.2.0-alpha.12) in client mode against our client
// (fixtures/conformance-client.mjs, on the built @mcp-fw/client), one scenario per run.

const TOOLCHAIN = fileURLToPath(new URL('../../../../scripts/toolchain.mjs', import.meta.url));
const RUNNER = fileURLToPath(new URL('../fixtures/conformance-client.mjs', import.meta.url));

/** Node 22 and the suite's entry script, installed into .cache/ on first use (announced on stderr). */
export function conformanceSuite(): { node: string; suite: string } {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(TOOLCHAIN)}).then((t) => console.log(JSON.stringify(t.ensureConformanceSuite())))`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
}

/** What one scenario run reported. */
export interface Outcome {
  readonly passed: number;
  readonly total: number;
  readonly failed: number;
  readonly warnings: number;
  readonly output: string;
}

/** Runs `scenario` at `specVersion` (none: an extension scenario, run as the suite defaults). */
export function runClientScenario(
  suite: { node: string; suite: string },
  scenario: string,
  specVersion: string | undefined,
  cwd: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      suite.node,
      [
        suite.suite,
        'client',
        '--command',
        `${process.execPath} ${RUNNER}`,
        '--scenario',
        scenario,
        ...(specVersion ? ['--spec-version', specVersion] : []),
      ],
      { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 90_000 },
      (_error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const counts = /Passed: (\d+)\/(\d+), (\d+) failed(?:, (\d+) warnings)?/.exec(output);
        resolve({
          passed: Number(counts?.[1] ?? 0),
          total: Number(counts?.[2] ?? 0),
          failed: Number(counts?.[3] ?? -1),
          warnings: Number(counts?.[4] ?? 0),
          output,
        });
      },
    );
  });
}
