import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { dropRestatedNames } from '../src/bundle/kept-names.ts';

// Two modules that both declare `parse` and `Shape`: bundling renames one of each, and only
// those need esbuild's __name call to keep their names.
async function bundled(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kept-names-'));
  try {
    writeFileSync(
      join(dir, 'a.js'),
      'export function parse() { return 1; }\nexport class Shape {}\nexport const arrow = () => 0;\n',
    );
    writeFileSync(
      join(dir, 'b.js'),
      'function parse() { return 2; }\nclass Shape {}\nexport const b = { parse, Shape };\n',
    );
    writeFileSync(
      join(dir, 'entry.js'),
      "import { parse, Shape, arrow } from './a.js';\nimport { b } from './b.js';\nglobalThis.out = [parse, Shape, arrow, b.parse, b.Shape];\n",
    );
    const result = await build({
      entryPoints: [join(dir, 'entry.js')],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      keepNames: true,
      minifyWhitespace: true,
      minifySyntax: true,
      write: false,
    });
    return result.outputFiles[0]!.text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = (source: string): string[] => {
  const context: { out?: { name: string }[] } = {};
  runInNewContext(source, context);
  return context.out!.map((f) => f.name);
};

describe('mcp-fw build --bundle: names esbuild keeps', () => {
  it('drops the __name calls that restate a name, keeps those of renamed bindings, and every name survives', async () => {
    const source = await bundled();
    const restated = /__name\(([\w$]+),"([\w$]+)"\)/g;
    const calls = [...source.matchAll(restated)].map((m) => [m[1], m[2]]);
    // esbuild wrote both kinds: this is what the function is for.
    expect(calls.some(([binding, name]) => binding === name)).toBe(true);
    expect(calls.some(([binding, name]) => binding !== name)).toBe(true);

    const trimmed = dropRestatedNames(source);
    expect(trimmed).toHaveLength(source.length);
    const left = [...trimmed.matchAll(restated)].map((m) => [m[1], m[2]]);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every(([binding, name]) => binding !== name)).toBe(true);
    expect(names(trimmed)).toEqual(['parse', 'Shape', 'arrow', 'parse', 'Shape']);
    expect(names(trimmed)).toEqual(names(source));
  });

  it('leaves code alone unless every __name it defines is esbuild’s helper', async () => {
    const code = 'function __name(a,b){};__name(f,"f");function f(){}';
    expect(dropRestatedNames(code)).toBe(code);
    // esbuild's helper, and beside it a __name of someone else's: nothing is touched.
    const source = await bundled();
    const mixed = `${source}\n(function(){var __name=(f,n)=>registry.add(n);__name(g,"g");function g(){}})();`;
    expect(dropRestatedNames(mixed)).toBe(mixed);
  });

  it('drops the static blocks that restate a class’s name, keeps those of renamed classes, and every name survives', () => {
    // esbuild's form: each class keeps its name through a first static block.
    const source = [
      'var __defProp=Object.defineProperty;',
      'var __name=(target,value)=>__defProp(target,"name",{value,configurable:!0});',
      'var A=class{static{__name(this,"A")}},B=class extends A{static{__name(this,"B")}};',
      'class C extends B{static{__name(this,"C")}}',
      // Renamed, assigned to a property (not named after it), or named otherwise: kept.
      'var D2=class{static{__name(this,"D")}};',
      'var o={};o.E=class{static{__name(this,"E")}};',
      'var F=class _F{static{__name(this,"F")}};',
      'out=[A,B,C,D2,o.E,F];',
    ].join('');
    const trimmed = dropRestatedNames(source);
    expect(trimmed).toHaveLength(source.length);
    const blocks = (code: string) =>
      [...code.matchAll(/static\{__name\(this,"(\w+)"\)\}/g)].map((m) => m[1]);
    expect(blocks(source)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(blocks(trimmed)).toEqual(['D', 'E', 'F']);
    expect(names(trimmed)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(names(trimmed)).toEqual(names(source));
  });
});
