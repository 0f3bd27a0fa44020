import { dirname, resolve } from 'node:path';
import { CliError } from '../output/cli-error.js';
import { runTsc, type TscCommand } from './typescript.js';

/** The parts of a resolved tsconfig that decide where a source file's output lands. */
export interface ResolvedConfig {
  /** Absolute; the tsconfig's directory when unset, as TypeScript 6+ does. */
  readonly rootDir: string;
  /** Absolute; undefined when the project emits beside its sources. */
  readonly outDir?: string;
  readonly hasReferences: boolean;
  readonly declaration: boolean;
  /** TypeScript's legacy decorators, which parameter decorators (`@Arg`) need. */
  readonly experimentalDecorators: boolean;
}

/** Reads the resolved configuration (`extends` applied) with `tsc --showConfig`. */
export async function readConfig(tsc: TscCommand, tsconfig: string): Promise<ResolvedConfig> {
  const dir = dirname(tsconfig);
  const run = await runTsc(tsc, ['-p', tsconfig, '--showConfig'], dir);
  let parsed: { compilerOptions?: Record<string, unknown>; references?: unknown[] };
  try {
    parsed = JSON.parse(run.output);
  } catch {
    throw new CliError(
      `TypeScript could not read ${tsconfig}: ${run.output.trim()}`,
      'Fix the error in tsconfig.json and run the command again.',
    );
  }
  const options = parsed.compilerOptions ?? {};
  return {
    rootDir: resolve(dir, typeof options.rootDir === 'string' ? options.rootDir : '.'),
    outDir: typeof options.outDir === 'string' ? resolve(dir, options.outDir) : undefined,
    hasReferences: Array.isArray(parsed.references) && parsed.references.length > 0,
    declaration: options.declaration === true || options.composite === true,
    experimentalDecorators: options.experimentalDecorators === true,
  };
}
