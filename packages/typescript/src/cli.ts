import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ExtractionError, SchemaExtractor } from './extract.js';
import { renderManifestModule, writeManifest } from './write.js';
import { readFileSync } from 'node:fs';

const USAGE = `usage: mcp-fw-schemas [--project tsconfig.json] [--out src/schemas.gen.ts] [--check] [--allow-any]

Reads the schemas of every @Tool, @Prompt and @Resource method from its TypeScript signature and
JSDoc, and writes them as a module exporting \`schemas\` (or JSON, for a .json path). Pass them to
the server: createServer({ ..., schemas }).

  --project    the tsconfig.json whose files are read (default: tsconfig.json)
  --out        where to write (default: schemas.gen.ts in the project's rootDir, else src/)
  --check      write nothing; exit 1 when the file is missing or out of date (for CI)
  --allow-any  accept any/unknown as "any JSON value" instead of failing`;

/** Runs the command; returns the exit code. */
export function main(argv: readonly string[], out: (text: string) => void = (t) => process.stderr.write(t)): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        project: { type: 'string', short: 'p' },
        out: { type: 'string', short: 'o' },
        check: { type: 'boolean' },
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
  try {
    const manifest = new SchemaExtractor({ tsconfig, allowAny: values['allow-any'] }).extract();
    if (values.check) {
      let current = '';
      try {
        current = readFileSync(target, 'utf8');
      } catch {}
      const expected = target.endsWith('.json') ? `${JSON.stringify(manifest, null, 2)}\n` : renderManifestModule(manifest);
      if (current === expected) return 0;
      out(`mcp-fw-schemas: ${shown} is ${current ? 'out of date' : 'missing'}. Fix: run mcp-fw-schemas${argv.filter((a) => a !== '--check').map((a) => ` ${a}`).join('')}\n`);
      return 1;
    }
    const count = Object.values(manifest).reduce((n, members) => n + Object.keys(members).length, 0);
    const changed = writeManifest(target, manifest);
    out(`mcp-fw-schemas: ${count} member${count === 1 ? '' : 's'} → ${shown}${changed ? '' : ' (unchanged)'}\n`);
    return 0;
  } catch (error) {
    out(`mcp-fw-schemas: ${error instanceof ExtractionError ? error.message : (error as Error).stack}\n`);
    return 1;
  }
}

function defaultOut(tsconfig: string): string {
  let rootDir = 'src';
  try {
    const text = readFileSync(tsconfig, 'utf8');
    rootDir = /"rootDir"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? 'src';
  } catch {}
  return resolve(dirname(tsconfig), rootDir, 'schemas.gen.ts');
}
