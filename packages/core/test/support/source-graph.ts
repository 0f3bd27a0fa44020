import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from './paths.ts';

// Reads core's source as text, for the tests that keep its house rules (layering.test.ts): no
// TypeScript API, only what a rule needs (imports, code without comments).

export const SRC = join(REPO_ROOT, 'packages/core/src');

export interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** Every `.ts` file under `dir`, relative to the source root, with `/` separators. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).replaceAll('\\', '/')] : [];
  });
}

/** Source text without comments, so JSDoc examples neither import nor log. */
export function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/([;,{}()])\s*\/\/.*$/gm, '$1');
}

export function code(file: string): string {
  return stripComments(readFileSync(join(SRC, file), 'utf8'));
}

/**
 * Static imports and re-exports, side-effect imports and dynamic `import()` (type-only:
 * `typeof import()`), and relative module augmentations (`declare module './x.js'`, type-only:
 * the file adds to an interface of `./x.js`, so it depends on it).
 */
export function parseImports(text: string): Import[] {
  const found: Import[] = [];
  const declaration = /\b(import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(declaration))
    found.push({ specifier: m[3], typeOnly: m[2] !== undefined });
  const dynamic = /(\btypeof\s+)?\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(dynamic))
    found.push({ specifier: m[2], typeOnly: m[1] !== undefined });
  const augmentation = /\bdeclare\s+module\s+['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(augmentation)) found.push({ specifier: m[1], typeOnly: true });
  return found;
}

export function importsOf(file: string): Import[] {
  return parseImports(code(file));
}

/** The source file a relative import of `file` names. */
export function resolveImport(file: string, specifier: string): string {
  const target = resolve(join(SRC, dirname(file)), specifier).replace(/\.js$/, '.ts');
  return relative(SRC, target).replaceAll('\\', '/');
}

/** Which of a subpath import's variants (package.json `imports`) a graph follows. */
export type Runtime = 'neutral' | 'node';

type Conditions = { readonly [condition: string]: string | Conditions };

/** Core's package.json `imports`: `#name` → its conditions. */
export const SUBPATH_IMPORTS: Record<string, Conditions> =
  JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')).imports ?? {};

/**
 * The source file `#name` (package.json `imports`) names on `runtime`: under `node`, the `node`
 * branch when it has one; otherwise the branch every other runtime gets (`default`). Undefined
 * for a name `imports` does not declare.
 */
export function resolveSubpath(specifier: string, runtime: Runtime): string | undefined {
  const conditions = SUBPATH_IMPORTS[specifier];
  if (conditions === undefined) return undefined;
  const branch = runtime === 'node' && conditions.node !== undefined ? conditions.node : conditions;
  const source = typeof branch === 'string' ? branch : branch['@mcp-fw/source'];
  return typeof source === 'string' ? source.replace(/^\.\/src\//, '') : undefined;
}

/** The source file an import of `file` loads on `runtime`; undefined for a package. */
export function importTarget(
  file: string,
  specifier: string,
  runtime: Runtime,
): string | undefined {
  if (specifier.startsWith('.')) return resolveImport(file, specifier);
  if (specifier.startsWith('#')) return resolveSubpath(specifier, runtime);
  return undefined;
}

/**
 * Every file `entry` loads at runtime (type-only imports are erased), each with the path that
 * reaches it; subpath imports (`#name`) load their `runtime` variant.
 */
export function runtimeGraph(entry: string, runtime: Runtime = 'neutral'): Map<string, string> {
  const seen = new Map<string, string>([[entry, entry]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const { specifier, typeOnly } of importsOf(file)) {
      const target = typeOnly ? undefined : importTarget(file, specifier, runtime);
      if (target === undefined || seen.has(target)) continue;
      seen.set(target, `${seen.get(file)} → ${target}`);
      queue.push(target);
    }
  }
  return seen;
}

/**
 * What in `text` only Node provides at runtime: `node:*` modules it loads, and uses of Node's
 * globals (`process`, `Buffer`, `require`, `__dirname`, `__filename`).
 */
export function nodeUses(text: string): string[] {
  const found = parseImports(text)
    .filter((i) => !i.typeOnly && i.specifier.startsWith('node:'))
    .map((i) => `import '${i.specifier}'`);
  const globals =
    /(?<![\w$.])(process|Buffer)\s*\.\s*\w+|(?<![\w$.])(require\s*\(|__dirname|__filename)/g;
  for (const m of text.matchAll(globals)) found.push(m[0].replace(/\s+/g, ''));
  return [...new Set(found)];
}
