import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { CliError } from '../output/cli-error.js';
import { decoratorFix } from './decorator-errors.js';
import type { Project } from './project.js';
import { readConfig, type ResolvedConfig } from './ts-config.js';
import { findTsc, runTsc, type TscCommand } from './typescript.js';

/** The outcome of compiling a project for a run: the entry's JavaScript, or why there is none. */
export type CompileResult =
  | { readonly ok: true; readonly entry: string; readonly warnings: string }
  | { readonly ok: false; readonly error: string; readonly fix?: string };

const OUTPUT_EXTENSION: Record<string, string> = {
  '.ts': '.js',
  '.tsx': '.js',
  '.mts': '.mjs',
  '.cts': '.cjs',
};
const SOURCE_EXTENSIONS: Record<string, readonly string[]> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
  '.json': ['.json'],
};

// Syntax errors (TS1xxx) mean the emitted JavaScript is broken; with --noCheck nothing else
// that stops a run is reported, and type errors never block a run (the editor shows them).
// Decorator errors (TS1206 …) are TS1xxx too, but only a type-checking run reports them.
const FATAL = /error TS1\d{3}:/;

/**
 * Compiles a project with its own `tsc` and tsconfig into a directory of our own, the way its
 * build does (decorator metadata included), so that what runs in dev has the same schemas as
 * production. Type-checking is skipped (`--noCheck`), which emits the same JavaScript faster.
 */
export class RunCompiler {
  private constructor(
    readonly project: Project & { tsconfig: string },
    readonly entry: string,
    private readonly tsc: TscCommand,
    private config: ResolvedConfig,
  ) {}

  /** Reads tsconfig.json again (it changed: rootDir or outDir may have moved). */
  async refresh(): Promise<void> {
    this.config = await readConfig(this.tsc, this.project.tsconfig);
  }

  /** Prepares to compile the project of `entry`, a TypeScript file. */
  static async create(entry: string, project: Project): Promise<RunCompiler> {
    if (!project.tsconfig) {
      throw new CliError(
        `There is no tsconfig.json above ${relative(process.cwd(), entry)}, so it cannot be compiled.`,
        'Create one with "experimentalDecorators" and "emitDecoratorMetadata" (npm create mcp-server has an example).',
      );
    }
    const tsc = findTsc(project);
    const withConfig = project as Project & { tsconfig: string };
    return new RunCompiler(withConfig, entry, tsc, await readConfig(tsc, project.tsconfig));
  }

  /**
   * Compiles into `outDir` (created, with a package.json giving the project's module type).
   * Without `experimentalDecorators` the project is type-checked too: TypeScript reports a
   * misplaced decorator (an `@Arg` under standard decorators: TS1206) only then, and silently
   * drops it otherwise. A failure carries the fix when it is TypeScript's decorator errors.
   */
  async compile(outDir: string): Promise<CompileResult> {
    mkdirSync(outDir, { recursive: true });
    const type = this.project.packageJson?.data.type === 'module' ? 'module' : 'commonjs';
    writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type })}\n`);
    const args = [
      '-p',
      this.project.tsconfig,
      '--outDir',
      outDir,
      '--rootDir',
      this.config.rootDir,
      ...(this.config.experimentalDecorators ? ['--noCheck'] : []),
      '--noEmitOnError',
      'false',
      '--declaration',
      'false',
      '--declarationMap',
      'false',
      '--composite',
      'false',
      '--incremental',
      'false',
      '--pretty',
      'false',
    ];
    const run = await runTsc(this.tsc, args, this.project.dir);
    const output = run.output.trim();
    if (FATAL.test(output)) {
      const fix = decoratorFix(output, this.config);
      return {
        ok: false,
        error: firstLines(output.split('\n').filter((l) => FATAL.test(l))),
        ...(fix ? { fix } : {}),
      };
    }
    const entry = this.outputOf(this.entry, outDir);
    if (!entry || !existsSync(entry)) {
      return {
        ok: false,
        error: `tsc emitted no JavaScript for ${relative(this.project.dir, this.entry)}${output ? `: ${firstLines(output.split('\n'))}` : ''}`,
      };
    }
    return { ok: true, entry, warnings: output };
  }

  /** Where the project's own build (its outDir) puts the JavaScript of `source`. */
  builtOutputOf(source: string): string | undefined {
    return this.config.outDir ? this.outputOf(source, this.config.outDir) : undefined;
  }

  /**
   * Where `path` (a project file or folder outside the sources) must appear for code compiled
   * into `outDir` to reach it by the relative URL the project's own build uses: a
   * `new URL('../skills', import.meta.url)` from dist/ names <project>/skills, so from a dev
   * generation's directory it names the directory beside that one.
   */
  besideOutput(path: string, outDir: string): string {
    return resolve(outDir, relative(this.config.outDir ?? this.config.rootDir, path));
  }

  /** Where the compiled JavaScript of `source` lands under `outDir`. */
  outputOf(source: string, outDir: string): string | undefined {
    const rel = relative(this.config.rootDir, source);
    if (rel.startsWith('..')) return undefined;
    const ext = extname(rel);
    return join(outDir, rel.slice(0, rel.length - ext.length) + (OUTPUT_EXTENSION[ext] ?? ext));
  }

  /** The source file that compiled into `output` (a file under `outDir`), if it still exists. */
  sourceOf(output: string, outDir: string): string | undefined {
    const rel = relative(outDir, output);
    if (rel.startsWith('..')) return output;
    const ext = extname(rel);
    const stem = join(this.config.rootDir, rel.slice(0, rel.length - ext.length));
    return (SOURCE_EXTENSIONS[ext] ?? [ext])
      .map((e) => stem + e)
      .find((candidate) => existsSync(candidate));
  }
}

function firstLines(lines: string[], max = 5): string {
  const shown = lines.slice(0, max).join('\n');
  return lines.length > max ? `${shown}\n… and ${lines.length - max} more` : shown;
}
