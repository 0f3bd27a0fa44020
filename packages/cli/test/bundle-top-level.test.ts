import { describe, expect, it } from 'vitest';
import { closures, lazyLayout, sharedTargets } from '../src/bundle/lazy-file.ts';
import { atTopLevel } from '../src/bundle/top-level.ts';

const at = (text: string) => atTopLevel(text.replace('@', ''), text.indexOf('@'));

describe('atTopLevel: where a lazy require runs', () => {
  it('a statement of the module is top level; a function body, an arrow and arguments are not', () => {
    expect(at("import x from 'y';\n@load('reflect-metadata');")).toBe(true);
    expect(at("const m = @load('a');")).toBe(true);
    expect(at("export function f() { return @load('a'); }")).toBe(false);
    expect(at("export const f = (t) => (loaded ??= @load('yaml')).parse(t);")).toBe(false);
    expect(at("export const libs = { ajv: () => @load('ajv') };")).toBe(false);
  });

  it('brackets in strings, template literals and comments do not count', () => {
    expect(at("const s = '{(['; // {\n/* ( */ const t = `}${1}`;\n@load('a');")).toBe(true);
    expect(at('const s = "\\"{"; function f() {\n@load(\'a\'); }')).toBe(false);
  });
});

describe('lazy files: what must stay in the bundle, and which targets share a file', () => {
  const meta = (inputs: Record<string, string[]>) => ({
    inputs: Object.fromEntries(
      Object.entries(inputs).map(([path, imports]) => [
        path,
        {
          bytes: 1,
          imports: imports.map((p) => ({ path: p, kind: 'require-call' as const })),
        },
      ]),
    ),
    outputs: {},
  });

  it('a target whose graph reaches a module the bundle holds is shared; the others are not', () => {
    const bundle = meta({ '/m/entry.js': ['/m/zod.js'], '/m/zod.js': [] });
    const lazy = meta({
      '/m/lazy.js': ['/m/ajv.js', '/m/conv.js'],
      '/m/ajv.js': ['/m/uri.js'],
      '/m/uri.js': [],
      '/m/conv.js': ['/m/zod.js'],
      '/m/zod.js': [],
    });
    const graphs = closures(lazy, ['/m/ajv.js', '/m/conv.js'], (p) => p);
    expect([...sharedTargets(bundle, graphs, (p) => p)]).toEqual(['/m/conv.js']);
  });

  it('targets whose graphs share a module go to one file, the others to files of their own', () => {
    const graphs = new Map([
      ['/n/node_modules/ajv/dist/ajv.js', new Set(['/n/node_modules/ajv/dist/core.js'])],
      [
        '/n/node_modules/ajv-formats/dist/index.js',
        new Set(['/n/node_modules/ajv-formats/dist/index.js', '/n/node_modules/ajv/dist/core.js']),
      ],
      ['/n/node_modules/yaml/dist/index.js', new Set(['/n/node_modules/yaml/dist/index.js'])],
    ]);
    const { loaders, files } = lazyLayout(graphs, 'server.lazy');
    expect([...files.keys()]).toEqual(['server.lazy/ajv.cjs', 'server.lazy/yaml.cjs']);
    expect(loaders.get('/n/node_modules/ajv-formats/dist/index.js')).toEqual({
      file: './server.lazy/ajv.cjs',
      key: 'ajv-formats/dist/index.js',
    });
    expect(files.get('server.lazy/ajv.cjs')!.map(([, key]) => key)).toEqual([
      'ajv-formats/dist/index.js',
      'ajv/dist/ajv.js',
    ]);
  });
});
