import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { withModuleWrapper } from '../src/bundle/module-wrapper.ts';

const dir = mkdtempSync(join(tmpdir(), 'module-wrapper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SOURCE =
  'const banner = 1;\nmodule.exports = { file: __filename, self: this === exports };\n//# sourceMappingURL=w.cjs.map\n';

describe("a CommonJS file with Node's module wrapper written in", () => {
  it('compiled at the top level of a script (the launcher), its value is the module function', () => {
    const wrapped = withModuleWrapper(SOURCE)!;
    const fn = new vm.Script(wrapped).runInThisContext();
    expect(typeof fn).toBe('function');
    const module = { exports: {} };
    fn.call(
      module.exports,
      module.exports,
      createRequire(import.meta.url),
      module,
      '/x/w.cjs',
      '/x',
    );
    expect(module.exports).toEqual({ file: '/x/w.cjs', self: true });
  });

  it('required as it is (Node 22, MCP_FW_CODE_CACHE=0, an MCPB host), it runs as the module it was', () => {
    const file = join(dir, 'w.cjs');
    writeFileSync(file, withModuleWrapper(SOURCE)!);
    expect(createRequire(import.meta.url)(file)).toEqual({ file, self: true });
  });

  it('keeps the source map comment last and line 1 (the banner) where it was; a hashbang file stays as it is', () => {
    const wrapped = withModuleWrapper(SOURCE)!;
    expect(wrapped.split('\n')[1]).toBe(SOURCE.split('\n')[1]);
    expect(wrapped.endsWith('\n//# sourceMappingURL=w.cjs.map\n')).toBe(true);
    expect(withModuleWrapper(`#!/usr/bin/env node\n${SOURCE}`)).toBeUndefined();
  });
});
