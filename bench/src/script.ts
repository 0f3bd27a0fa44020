// What every benchmark script does around its measurements: write the report where the README
// says, and leave no server process behind, however the script ends.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sourceState } from './machine.js';

/** A target from an issue, judged on this run. */
export interface Verdict {
  readonly name: string;
  readonly measured: string;
  readonly pass: boolean;
}

/** Prints each verdict, then how much CPU other processes took meanwhile (a warning above 5 %). */
export function printVerdicts(verdicts: readonly Verdict[], otherCpuShare: number): void {
  for (const t of verdicts) console.log(`${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${t.measured}`);
  console.log(
    `\nother processes used ${(100 * otherCpuShare).toFixed(1)}% of the machine's CPU during the run`,
  );
  if (otherCpuShare > 0.05)
    console.log('warning: that is enough to skew the figures; run again on a quiet machine');
}

/** What every report starts with: when, which code, and the machine as it was at the end. */
export function reportHeader<M extends object>(machine: M, otherCpuShare: number) {
  return {
    date: new Date().toISOString(),
    source: sourceState(),
    machine: { ...machine, loadAverageAtEnd: loadavg(), otherCpuShare },
  };
}

/** Writes `report` to `bench/results/<file>` and says where. */
export function writeReport(file: string, report: unknown): void {
  const out = new URL(`../results/${file}`, import.meta.url);
  mkdirSync(new URL('.', out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${fileURLToPath(out)}`);
}

/** Runs `main`, calling `cleanup` (which kills the servers) on exit, on a signal and on failure. */
export function runScript(main: () => Promise<void>, cleanup: () => void): void {
  process.once('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanup();
      process.exit(130);
    });
  }
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    cleanup();
    process.exitCode = 1;
  });
}
