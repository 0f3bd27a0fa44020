import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ExtractionError, SchemaExtractor } from './extract.js';
import { defaultOut, renderManifestModule, writeManifest } from './write.js';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import type { SchemaManifest } from './manifest.js';

const USAGE = `usage: mcp-fw-schemas [--project tsconfig.json] [--out src/schemas.gen.ts] [--check | --watch] [--allow-any]

Reads the schemas of every @Tool, @Prompt and @Resource method from its TypeScript signature and
JSDoc, and writes them as a module exporting \`schemas\` (or JSON, for a .json path). Pass them to
the server: createServer({ ..., schemas }).

  --project    the tsconfig.json whose files are read (default: tsconfig.json)
  --out        where to write (default: schemas.gen.ts in the project's rootDir, else src/)
  --check      write nothing; exit 1 when the file is missing or out of date (for CI)
  --watch      write again whenever a .ts file of the project changes (beside mcp-fw dev)
  --allow-any  accept any/unknown as "any JSON value" instead of failing`;

/**
 * Runs `mcp-fw-schemas` with `argv`; returns the exit code (with `--watch` it keeps watching
 * after returning the first run's code). Messages go to `out` (stderr by default).
 *
 * @example
 * ```ts
 * process.exitCode = main(['--project', 'tsconfig.json', '--check']);
 * ```
 */
export function main(
  argv: readonly string[],
  out: (text: string) => void = (t) => process.stderr.write(t),
): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        project: { type: 'string', short: 'p' },
        out: { type: 'string', short: 'o' },
        check: { type: 'boolean' },
        watch: { type: 'boolean' },
        'allow-any': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    out(`mcp-fw-schemas: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out(`${USAGE}\n`);
    return 0;
  }
  const tsconfig = resolve(values.project ?? 'tsconfig.json');
  const target = resolve(values.out ?? defaultOut(tsconfig));
  const shown = relative(process.cwd(), target) || target;
  const extractor = new SchemaExtractor({ tsconfig, allowAny: values['allow-any'] });
  if (values.watch) {
    // Watching starts first: Node sets up a recursive watch asynchronously, and a save made
    // while the first extraction runs must not be missed.
    watchProject(dirname(tsconfig), target, () => generate(extractor, target, shown, out));
    return generate(extractor, target, shown, out);
  }
  try {
    const manifest = extractor.extract();
    warn(extractor, out);
    if (values.check) {
      let current = '';
      try {
        current = readFileSync(target, 'utf8');
      } catch {}
      const expected = target.endsWith('.json')
        ? `${JSON.stringify(manifest, null, 2)}\n`
        : renderManifestModule(manifest, undefined, extractor.stamp(target));
      if (current === expected) return 0;
      out(
        `mcp-fw-schemas: ${shown} is ${current ? 'out of date' : 'missing'}. Fix: run mcp-fw-schemas${argv
          .filter((a) => a !== '--check')
          .map((a) => ` ${a}`)
          .join('')}\n`,
      );
      return 1;
    }
    report(manifest, write(extractor, target, manifest), shown, out);
    return 0;
  } catch (error) {
    out(
      `mcp-fw-schemas: ${error instanceof ExtractionError ? error.message : (error as Error).stack}\n`,
    );
    return 1;
  }
}

function write(extractor: SchemaExtractor, target: string, manifest: SchemaManifest): boolean {
  return writeManifest(target, manifest, { stamp: extractor.stamp(target) });
}

function warn(extractor: SchemaExtractor, out: (text: string) => void): void {
  for (const warning of extractor.warnings) out(`mcp-fw-schemas: warning: ${warning}\n`);
}

function report(
  manifest: SchemaManifest,
  changed: boolean,
  shown: string,
  out: (text: string) => void,
): void {
  const count = Object.values(manifest).reduce((n, members) => n + Object.keys(members).length, 0);
  out(
    `mcp-fw-schemas: ${count} member${count === 1 ? '' : 's'} → ${shown}${changed ? '' : ' (unchanged)'}\n`,
  );
}

function generate(
  extractor: SchemaExtractor,
  target: string,
  shown: string,
  out: (text: string) => void,
): number {
  try {
    const manifest = extractor.extract();
    warn(extractor, out);
    report(manifest, write(extractor, target, manifest), shown, out);
    return 0;
  } catch (error) {
    // Watching goes on: the next save may fix it, and the old file stays as it was.
    out(
      `mcp-fw-schemas: ${error instanceof ExtractionError ? error.message : (error as Error).stack}\n`,
    );
    return 1;
  }
}

// Editors save in bursts (write, rename, chmod): one extraction per burst.
const SETTLE_MS = 50;

function watchProject(dir: string, target: string, run: () => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  return watch(dir, { recursive: true }, (_event, name) => {
    if (!name || !/\.(c|m)?tsx?$/.test(name) || /(^|[\\/])(node_modules|dist)[\\/]/.test(name))
      return;
    if (resolve(dir, name) === target) return;
    clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  });
}
