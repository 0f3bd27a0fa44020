import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The compatibility date a new wrangler.jsonc gets: the one mcp-fw is tested in workerd at. */
export const COMPATIBILITY_DATE = '2026-11-01';

/** A Durable Object binding of a wrangler config: `env.<name>`, served by class `className`. */
export interface DurableObjectBinding {
  readonly name: string;
  readonly className: string;
}

/** What `mcp-fw build --target workers` reads from an existing wrangler config. */
export interface WranglerConfig {
  /** wrangler.jsonc, wrangler.json or wrangler.toml. */
  readonly file: string;
  /** Its `main` (absolute), when it is a JSON config that names one. */
  readonly main?: string;
  /** Its Durable Object bindings (JSON configs only). */
  readonly durableObjects: readonly DurableObjectBinding[];
}

const NAMES = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];

/** The project's wrangler config, if it has one. */
export function readWranglerConfig(dir: string): WranglerConfig | undefined {
  const name = NAMES.find((n) => existsSync(join(dir, n)));
  if (!name) return undefined;
  const file = join(dir, name);
  // TOML is wrangler's older format: kept as is and not read (the defaults apply).
  if (name.endsWith('.toml')) return { file, durableObjects: [] };
  const data = parseJsonc(readFileSync(file, 'utf8'), file) as {
    main?: unknown;
    durable_objects?: { bindings?: { name?: unknown; class_name?: unknown }[] };
  };
  const durableObjects = (data.durable_objects?.bindings ?? []).flatMap((b) =>
    typeof b.name === 'string' && typeof b.class_name === 'string'
      ? [{ name: b.name, className: b.class_name }]
      : [],
  );
  return {
    file,
    main: typeof data.main === 'string' ? join(dir, data.main) : undefined,
    durableObjects,
  };
}

/**
 * Writes wrangler.jsonc for a bundle built by mcp-fw (`no_bundle`: wrangler uploads it as is),
 * with the Durable Object binding that holds legacy sessions.
 */
export function writeWranglerConfig(
  dir: string,
  options: { name: string; main: string; sessions?: DurableObjectBinding },
): string {
  const file = join(dir, 'wrangler.jsonc');
  const main = relative(dir, options.main).split('\\').join('/');
  const text = `// Written by mcp-fw build --target workers; deploy with: npx wrangler deploy
{
  "name": ${JSON.stringify(options.name)},
  // The module worker mcp-fw build bundled; wrangler uploads it without bundling again.
  "main": ${JSON.stringify(main)},
  "no_bundle": true,
  "compatibility_date": "${COMPATIBILITY_DATE}",
  "compatibility_flags": ["nodejs_compat"]${options.sessions ? sessionsConfig(options.sessions) : ''}
}
`;
  writeFileSync(file, text);
  return file;
}

function sessionsConfig({ name, className }: DurableObjectBinding): string {
  return `,
  // Legacy (2024-11-05 … 2025-11-25) sessions live in Durable Objects of this class.
  "durable_objects": {
    "bindings": [{ "name": ${JSON.stringify(name)}, "class_name": ${JSON.stringify(className)} }]
  },
  "migrations": [{ "tag": "v1", "new_classes": [${JSON.stringify(className)}] }]`;
}

/** JSON with comments and trailing commas, as wrangler.jsonc allows. */
export function parseJsonc(text: string, file: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // A string, escapes included, copied whole.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON with comments: ${(error as Error).message}`);
  }
}
