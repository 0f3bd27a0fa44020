import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { cacheRoot, type Project } from '../project/project.js';

/**
 * What `mcp-fw dev` runs before each reload with `@mcp-fw/typescript`: the schemas module
 * regenerated from the TypeScript types, or (for a project that declares zod or other schemas)
 * a check that those schemas agree with the handlers' types.
 */
export interface DevSchemas {
  /** The generated module (`src/schemas.gen.ts` by default); absent when only checking. */
  readonly target?: string;
  /** The project files the last extraction read, `import type` ones included. */
  files(): string[];
  /** Extracts again (only changed files are re-parsed) and writes the module when it changed. */
  regenerate(): RegenerateResult | Promise<RegenerateResult>;
}

type RegenerateResult =
  | { readonly ok: true; readonly written: boolean }
  | { readonly ok: false; readonly error: string };

// A decorator option or @Arg that declares a schema: only then is there anything to check.
const EXPLICIT_SCHEMA = /\b(input|output)\s*:|@Arg\(\s*(['"`])[^'"`]*\2\s*,\s*(?!undefined\b)[\w$]/;

/** Whether the project's sources (outside node_modules) declare explicit schemas anywhere. */
function declaresSchemas(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return false;
  }
  return names.some(
    (name) =>
      /\.(c|m)?tsx?$/.test(name) &&
      !/(^|[\\/])(node_modules|dist)[\\/]/.test(name) &&
      !name.endsWith('.d.ts') &&
      EXPLICIT_SCHEMA.test(readFileSync(join(dir, name), 'utf8')),
  );
}

/**
 * For a project that declares zod (Standard) schemas rather than generating them: a check, before
 * each reload, that they agree with the handlers' types, in words. `@mcp-fw/typescript` (and its
 * compiler) is loaded only once the sources declare a schema.
 */
function agreementCheck(project: Project & { tsconfig: string }, entry?: string): DevSchemas {
  type Package = typeof import('@mcp-fw/typescript');
  let typescript: Package | undefined;
  let extractor: InstanceType<Package['SchemaExtractor']> | undefined;
  let unavailable = false;
  // The sources the last passing check read, with their hashes: while they are unchanged, no
  // compiler is loaded (mcp-fw call run again, the next mcp-fw dev start).
  const passed = join(cacheRoot(project), 'schema-agreement.stamp');
  return {
    files: () => extractor?.sourceFiles ?? [],
    async regenerate() {
      if (unavailable || !declaresSchemas(project.dir)) return { ok: true, written: false };
      if (!extractor && (await passedBefore(passed))) return { ok: true, written: false };
      if (!extractor) {
        const loaded = await loadTypeScriptPackage();
        if ('error' in loaded) {
          unavailable = true;
          return { ok: true, written: false };
        }
        typescript = loaded;
        extractor = new loaded.SchemaExtractor({ tsconfig: project.tsconfig });
      }
      const problems = extractor.checkAgreement(entry);
      if (!problems.length) {
        try {
          mkdirSync(dirname(passed), { recursive: true });
          writeFileSync(passed, typescript!.renderStamp(extractor.stamp(passed)));
        } catch {} // A cache that cannot be written only costs the next run a check.
        return { ok: true, written: false };
      }
      return {
        ok: false,
        error: `The schemas and the handlers' types disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      };
    },
  };
}

/** Whether the check passed for the sources as they are now (the light entry: no compiler). */
async function passedBefore(stamp: string): Promise<boolean> {
  try {
    const { schemasFreshness } = await import('@mcp-fw/typescript/freshness');
    return schemasFreshness(stamp).state === 'fresh';
  } catch {
    return false;
  }
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

/** `@mcp-fw/typescript`, or why it cannot be loaded (an optional peer of the CLI). */
export async function loadTypeScriptPackage(): Promise<
  typeof import('@mcp-fw/typescript') | { readonly error: string }
> {
  try {
    return await import(PACKAGE);
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0] };
  }
}

/**
 * The schema regenerator of a project that uses `@mcp-fw/typescript`, else the check of its
 * declared schemas against the handlers' types (when `@mcp-fw/typescript` can be loaded), or
 * undefined without a tsconfig. The package (and the TypeScript 5.9 compiler it loads) is imported only then: it is
 * an optional peer of the CLI. `warn` says why a project that looks like it uses it gets no
 * regeneration, and prints the extraction's warnings (unknown JSDoc tags …) when they change.
 */
export async function devSchemas(
  project: Project,
  warn: (line: string) => void,
  /** The module that exports the server: the agreement check reads only what it imports. */
  entry?: string,
): Promise<DevSchemas | undefined> {
  if (!project.tsconfig) return undefined;
  if (!usesTypeSchemas(project)) return agreementCheck(project as Project & { tsconfig: string });
  const typescript = await loadTypeScriptPackage();
  if ('error' in typescript) {
    warn(
      `schemas are not regenerated: ${PACKAGE} cannot be loaded (${typescript.error}). ` +
        `Fix: npm install --save-dev ${PACKAGE}`,
    );
    return undefined;
  }
  const { SchemaExtractor, ExtractionError, defaultOut, writeManifest } = typescript;
  const extractor = new SchemaExtractor({ tsconfig: project.tsconfig });
  const target = defaultOut(project.tsconfig);
  let shownWarnings = '';
  return {
    target,
    files: () => extractor.sourceFiles,
    regenerate() {
      try {
        const manifest = extractor.extract();
        const warnings = extractor.warnings.join('\n');
        if (warnings !== shownWarnings) {
          for (const warning of extractor.warnings) warn(`warning: ${warning}`);
          shownWarnings = warnings;
        }
        return {
          ok: true,
          written: writeManifest(target, manifest, { stamp: extractor.stamp(target) }),
        };
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
