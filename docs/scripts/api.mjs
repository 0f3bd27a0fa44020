#!/usr/bin/env node
// Writes the API reference (docs/api/, git-ignored) with TypeDoc from the public entry points:
// every `exports` entry of every packages/*/package.json, named as users import it. Fails (exit 1)
// on any TypeDoc warning, an undocumented export included (validation.notDocumented);
// docs/test/api-reference.test.ts runs the same check in `npm test`.
//
//   node docs/scripts/api.mjs
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, ConsoleLogger, Converter, ReflectionKind } from 'typedoc';

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(DOCS, '..');
const OUT = join(DOCS, 'api');

/** `{ file, name }` for every public entry point: the source file and the import path. */
export function entryPoints(root = ROOT) {
  const found = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifest = join(root, 'packages', dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = typeof target === 'object' ? target['@mcp-fw/source'] : undefined;
      if (!source) continue;
      found.push({
        file: join(root, 'packages', dir, source),
        name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      });
    }
  }
  return found;
}

/** TypeDoc's console logger, also keeping each warning and error for the caller. */
class KeepingLogger extends ConsoleLogger {
  problems = [];
  log(message, level) {
    super.log(message, level);
    if (level >= 2) this.problems.push(String(message)); // LogLevel.Warn, LogLevel.Error
  }
}

/**
 * Converts and checks the public entry points under `root`; with `write`, writes the Markdown
 * reference to `out`. Resolves to the entry points and TypeDoc's warnings and errors.
 */
export async function apiReference({
  root = ROOT,
  tsconfig = join(DOCS, 'tsconfig.api.json'),
  out = OUT,
  write = true,
} = {}) {
  const entries = entryPoints(root);
  const byFile = new Map(entries.map((e) => [e.file, e.name]));
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((e) => e.file),
    tsconfig,
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out,
    docsRoot: DOCS,
    readme: 'none',
    name: 'API reference',
    skipErrorChecking: true, // tsc 7 type-checks the sources; this is TypeScript 5.9
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    hideGenerator: true,
    sourceLinkTemplate: undefined,
    disableSources: true,
    entryFileName: 'index',
    validation: {
      notExported: false,
      invalidLink: true,
      notDocumented: true,
      rewrittenLink: true,
      unusedMergeModuleWith: true,
    },
    requiredToBeDocumented: ['Class', 'Function', 'Variable', 'Interface', 'TypeAlias', 'Enum'],
    packagesRequiringDocumentation: [
      ...new Set(
        entries.map((e) =>
          e.name
            .split('/')
            .slice(0, e.name.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
      ),
    ],
    treatValidationWarningsAsErrors: true,
    treatWarningsAsErrors: true,
    logLevel: 'Warn',
    sidebar: { autoConfiguration: true, format: 'vitepress', pretty: false, collapsed: true },
  });
  const logger = new KeepingLogger();
  logger.level = app.logger.level;
  app.logger = logger;
  // A module is named after its entry file by default; users know it by its import path.
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const symbol = context.getSymbolFromReflection(reflection);
    const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
    const name = file && byFile.get(resolve(file));
    if (name) reflection.name = name;
  });
  const project = await app.convert();
  if (!project)
    return {
      entries,
      problems: [...logger.problems, 'TypeDoc could not convert the entry points'],
    };
  app.validate(project);
  if (logger.problems.length || !write) return { entries, problems: logger.problems };
  rmSync(out, { recursive: true, force: true });
  await app.generateOutputs(project);
  // The landing page says what each entry point is for, and links its module page (TypeDoc
  // would take those links for files to copy); a test checks it names every entry point.
  copyFileSync(join(DOCS, 'scripts', 'api-intro.md'), join(out, 'index.md'));
  return { entries, problems: logger.problems };
}

async function main() {
  const { entries, problems } = await apiReference();
  if (problems.length) {
    process.stderr.write(
      `The API reference has ${problems.length} problem(s) (above). ` +
        'Fix: add a JSDoc comment (with a short example) to each export named there.\n',
    );
    process.exit(1);
  }
  process.stdout.write(`API reference: ${entries.length} entry points → ${relative(ROOT, OUT)}/\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
