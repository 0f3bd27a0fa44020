import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Plugin, PluginBuild } from 'esbuild';

// `createRequire(import.meta.url)`, called at once or kept under a name. @mcp-fw/core loads
// reflect-metadata, Ajv and the optional schema converters this way: lazily, and without Node's
// scan of CommonJS for named exports. esbuild cannot see through it.
const CREATE_REQUIRE = /\bcreateRequire\(\s*import\.meta\.url\s*\)/;
const NAMED = /\b(?:const|let|var)\s+([\w$]+)\s*=\s*createRequire\(\s*import\.meta\.url\s*\)/g;

/**
 * Lets the bundle hold what modules load through `createRequire(import.meta.url)`: each call with
 * a literal specifier becomes a plain `require()` of the resolved file, which esbuild bundles
 * where it stands, so it still runs only when called. A specifier that does not resolve (an
 * optional peer that is not installed) is left to the runtime, as before.
 */
export function lazyRequirePlugin(): Plugin {
  return {
    name: 'mcp-fw-lazy-require',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!CREATE_REQUIRE.test(text)) return undefined;
        return { contents: await rewrite(build, text, dirname(args.path)), loader: 'js' };
      });
    },
  };
}

async function rewrite(build: PluginBuild, text: string, resolveDir: string): Promise<string> {
  const callees = [
    CREATE_REQUIRE.source,
    ...[...text.matchAll(NAMED)].map((m) => `\\b${m[1]!.replaceAll('$', '\\$')}`),
  ];
  const call = new RegExp(`(?:${callees.join('|')})\\(\\s*(['"])([^'"\\n]+)\\1\\s*\\)`, 'g');
  const targets = new Map<string, string | undefined>();
  for (const match of text.matchAll(call)) {
    const specifier = match[2]!;
    if (targets.has(specifier) || specifier.startsWith('node:')) continue;
    // As an import would resolve it: a dual package then comes in once, as the ES module build
    // the code's own imports use (one zod, one registry of schema metadata).
    const resolved = await build.resolve(specifier, { kind: 'import-statement', resolveDir });
    targets.set(
      specifier,
      resolved.errors.length > 0 || resolved.external ? undefined : resolved.path,
    );
  }
  return text.replace(call, (whole, _quote: string, specifier: string) => {
    const path = targets.get(specifier);
    return path === undefined ? whole : `require(${JSON.stringify(path)})`;
  });
}
