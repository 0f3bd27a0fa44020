import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_MARK, type GeneratedFile } from './generate.js';

/** What {@link writeClasses} did, by file name. */
export interface WriteReport {
  /** Generated files written (new or changed). */
  readonly written: readonly string[];
  /** Generated files already up to date. */
  readonly unchanged: readonly string[];
  /** Your files written for the first time. */
  readonly created: readonly string[];
  /** Your files left as they were (they exist: never overwritten). */
  readonly kept: readonly string[];
  /** Generated files of an earlier run whose tag is gone, removed. */
  readonly removed: readonly string[];
}

/**
 * Writes {@link generateClasses}' files into `dir`: every `*.gen.ts` is rewritten, each of your
 * files only when it does not exist yet, and a generated file (by its first line) that this run
 * no longer produces is removed, so nothing stale is compiled; tsc then names any of your files
 * that still imports it.
 *
 * @example
 * ```ts
 * import { generateClasses, writeClasses } from '@mcp-fw/openapi/codegen';
 *
 * const report = writeClasses('src/api', await generateClasses('./petstore.yaml'));
 * console.error(`kept your ${report.kept.join(', ')}`);
 * ```
 */
export function writeClasses(dir: string, files: readonly GeneratedFile[]): WriteReport {
  mkdirSync(dir, { recursive: true });
  const report = { written: [], unchanged: [], created: [], kept: [], removed: [] } as {
    [K in keyof WriteReport]: string[];
  };
  for (const file of files) {
    const target = join(dir, file.path);
    if (file.owner === 'user') {
      if (existsSync(target)) report.kept.push(file.path);
      else {
        writeFileSync(target, file.text);
        report.created.push(file.path);
      }
      continue;
    }
    if (existsSync(target) && readFileSync(target, 'utf8') === file.text) {
      report.unchanged.push(file.path);
      continue;
    }
    writeFileSync(target, file.text);
    report.written.push(file.path);
  }
  const current = new Set(files.map((f) => f.path));
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.gen.ts') || current.has(name)) continue;
    const target = join(dir, name);
    if (readFileSync(target, 'utf8').startsWith(GENERATED_MARK)) {
      rmSync(target);
      report.removed.push(name);
    }
  }
  return report;
}
