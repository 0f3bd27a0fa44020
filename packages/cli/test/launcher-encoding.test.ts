import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../src/bundle/bundle-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'launcher-encoding-'));
// Node 22.1+ loads the bundle with require() and its own compile cache; the launcher reads the
// bundle's text itself (latin1 or UTF-8) where it compiles it through vm.Script (Node 20).
const VM_CACHE = !('enableCompileCache' in nodeModule);
const cacheSays = (stderr: string, what: string) => {
  if (VM_CACHE) expect(stderr).toContain(`mcp-fw code cache: ${what}`);
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A program that prints non-ASCII text: esbuild escapes it in the bundle, so the bundle is ASCII
// unless something esbuild copies verbatim (the entry's hashbang line) carries such characters.
async function built(name: string, hashbang: string) {
  const entry = join(dir, `${name}.js`);
  writeFileSync(entry, `${hashbang}\nconsole.error(JSON.stringify({ text: 'café ☕' }));\n`);
  const result = await bundleServer({ entry, outDir: join(dir, 'out') });
  const launcher = readFileSync(result.launcherFile, 'utf8');
  const run = () => {
    const child = spawnSync(process.execPath, [result.launcherFile], {
      encoding: 'utf8',
      env: { ...process.env, MCP_FW_CODE_CACHE: 'debug' },
    });
    expect(child.status, child.stderr).toBe(0);
    return child.stderr;
  };
  return { launcher, run };
}

describe('mcp-fw build --bundle: how the launcher reads the bundle', () => {
  it('an ASCII bundle is read as latin1 (one read of its size, no UTF-8 decoding) and runs, also from its code cache', async () => {
    const { launcher, run } = await built('ascii', '#!/usr/bin/env node');
    expect(launcher).toMatch(/runCached\(bundle, \{"hash":"[0-9a-f]+","encoding":"latin1"/);
    const first = run();
    expect(first).toContain('{"text":"café ☕"}');
    cacheSays(first, 'written to');
    const second = run();
    expect(second).toContain('{"text":"café ☕"}');
    cacheSays(second, 'accepted');
  });

  it('a bundle with non-ASCII bytes (a hashbang esbuild copies as it is) is read as UTF-8', async () => {
    const { launcher, run } = await built('unicode', '#!/usr/bin/env -S node --title=ünï');
    expect(launcher).toMatch(/runCached\(bundle, \{"hash":"[0-9a-f]+","encoding":"utf8"/);
    expect(run()).toContain('{"text":"café ☕"}');
    const second = run();
    expect(second).toContain('{"text":"café ☕"}');
    cacheSays(second, 'accepted');
  });
});
