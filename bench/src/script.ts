// What every benchmark script does around its measurements: write the report where the README
// says, and leave no server process behind, however the script ends.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
