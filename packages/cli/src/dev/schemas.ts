import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Project } from '../project/project.js';

/** Regenerates a project's schemas module (`@mcp-fw/typescript`) before each reload. */
export interface DevSchemas {
  /** The generated module (`src/schemas.gen.ts` by default). */
  readonly target: string;
  /** The project files the last extraction read, `import type` ones included. */
  files(): string[];
  /** Extracts again (only changed files are re-parsed) and writes the module when it changed. */
  regenerate():
    | { readonly ok: true; readonly written: boolean }
    | { readonly ok: false; readonly error: string };
}

const PACKAGE = '@mcp-fw/typescript';

/** Whether the project derives its schemas from its TypeScript types. */
export function usesTypeSchemas(project: Project): boolean {
  const data = project.packageJson?.data ?? {};
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = data[field];
    if (deps && typeof deps === 'object' && PACKAGE in deps) return true;
  }
  return existsSync(join(project.dir, 'src', 'schemas.gen.ts'));
}

/**
 * The schema regenerator of a project that uses `@mcp-fw/typescript`, or undefined. The package
 * (and the TypeScript 5.9 compiler it loads) is imported only then: it is an optional peer of
 * the CLI, and other projects never pay for it. `warn` says why a project that looks like it
 * uses it gets no regeneration.
 */
export async function devSchemas(
  project: Project,
  warn: (line: string) => void,
): Promise<DevSchemas | undefined> {
  if (!project.tsconfig || !usesTypeSchemas(project)) return undefined;
  let typescript: typeof import('@mcp-fw/typescript');
  try {
    typescript = await import(PACKAGE);
  } catch (error) {
    warn(
      `schemas are not regenerated: ${PACKAGE} cannot be loaded (${(error as Error).message.split('\n')[0]}). ` +
        `Fix: npm install --save-dev ${PACKAGE}`,
    );
    return undefined;
  }
  const { SchemaExtractor, ExtractionError, defaultOut, writeManifest } = typescript;
  const extractor = new SchemaExtractor({ tsconfig: project.tsconfig });
  const target = defaultOut(project.tsconfig);
  return {
    target,
    files: () => extractor.sourceFiles,
    regenerate() {
      try {
        return { ok: true, written: writeManifest(target, extractor.extract()) };
      } catch (error) {
        // The old module stays: the reload fails with the reason, and the next save retries.
        const reason =
          error instanceof ExtractionError
            ? error.message
            : ((error as Error).stack ?? String(error));
        return {
          ok: false,
          error: `${relative(process.cwd(), target)} cannot be regenerated. ${reason}`,
        };
      }
    },
  };
}
