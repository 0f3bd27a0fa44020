import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { LAZY_FILE } from './lazy-require-plugin.js';

// zod 4 imports all of its 40-odd locales (`z.locales`), some 300 KB of source, though a server
// runs only English (zod's default) unless it calls `z.config(z.locales.de())`. A bundle keeps
// English and a stand-in for each other locale that loads it from a lazy file on first call
// (lazy-file.ts says why a start should not carry what it does not run).

const INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
const LINE = /^export \{ default as ([\w$]+) \} from "\.\/([\w-]+)\.js";$/;
const UTIL = '../core/util.js';
const KEPT = 'en';

/** The locales of zod's `locales/index.js`, by export name, when it has the expected form. */
export async function zodLocales(indexFile: string): Promise<Map<string, string> | undefined> {
  const lines = (await readFile(indexFile, 'utf8')).split('\n').filter((line) => line.trim());
  const locales = new Map<string, string>();
  for (const line of lines) {
    const match = LINE.exec(line.trim());
    // Another layout than the one this was written for: left as it is.
    if (!match) return undefined;
    locales.set(match[1]!, match[2]!);
  }
  return locales.has(KEPT) ? locales : undefined;
}

/**
 * For the bundle: zod's locales index with English in place and the others loaded from `file`
 * (`./<name>.lazy/zod-locales.cjs`) on first call, which gets zod's own util module (a locale
 * formats its messages with it): no second copy of it in the lazy file.
 */
export function zodLocalesStandIn(
  file: string,
  onStandIn: (index: string, locales: Map<string, string>) => void,
): Plugin {
  return {
    name: 'mcp-fw-zod-locales',
    setup(build) {
      build.onResolve({ filter: LAZY_FILE }, (args) =>
        args.path === file ? { path: args.path, external: true } : undefined,
      );
      build.onLoad({ filter: INDEX }, async (args) => {
        const locales = await zodLocales(args.path);
        if (!locales) return undefined;
        onStandIn(args.path, locales);
        const lines = [
          `import * as util from ${JSON.stringify(UTIL)};`,
          `export { default as ${KEPT} } from "./${locales.get(KEPT)}.js";`,
          `const load = (name) => require(${JSON.stringify(file)})(util)[name];`,
        ];
        for (const [name] of locales)
          if (name !== KEPT)
            lines.push(
              `export function ${name}(...args) { return load(${JSON.stringify(name)})(...args); }`,
            );
        return { contents: `${lines.join('\n')}\n`, loader: 'js' };
      });
    },
  };
}

/** The lazy file's entry: a function of zod's util module that returns the locales. */
export function zodLocalesEntry(indexFile: string, locales: ReadonlyMap<string, string>): string {
  const dir = indexFile.replace(/index\.js$/, '');
  const lines = [
    "const holder = require('mcp-fw-zod-util');",
    'let locales;',
    'module.exports = (util) => {',
    '  holder.util = util;',
    '  return (locales ??= {',
  ];
  for (const [name, file] of locales)
    if (name !== KEPT)
      lines.push(`    ${name}: require(${JSON.stringify(`${dir}${file}.js`)}).default,`);
  lines.push('  });', '};', '');
  return lines.join('\n');
}

/** For the lazy file: a locale's `../core/util.js` is the bundle's, handed over at load. */
export function zodUtilFromBundle(): Plugin {
  return {
    name: 'mcp-fw-zod-util',
    setup(build) {
      build.onResolve({ filter: /^mcp-fw-zod-util$/ }, () => ({
        path: 'holder',
        namespace: 'mcp-fw-zod-util',
      }));
      build.onResolve({ filter: /^\.\.\/core\/util\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/]locales[\\/]/.test(args.importer)
          ? { path: 'util', namespace: 'mcp-fw-zod-util' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'mcp-fw-zod-util' }, (args) => ({
        contents:
          args.path === 'holder'
            ? 'module.exports = {};'
            : "module.exports = require('mcp-fw-zod-util').util;",
        loader: 'js',
      }));
    },
  };
}
