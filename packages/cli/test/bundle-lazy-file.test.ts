import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initializeRequest } from '../../../test-support/frames.ts';
import { bundleServer } from '../src/bundle/bundle-server.ts';
import { cleanupAfterEach } from './support/cleanups.ts';
import { fixtureProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();
// Node 22.1+ loads the bundle and its lazy files with require() and its own compile cache.
const VM_CACHE = !('enableCompileCache' in nodeModule);

// Packages core requires lazily, as the source map names their files.
const LAZY_PACKAGES = /\/node_modules\/(yaml|ajv|ajv-formats|fast-uri|@cfworker\/json-schema)\//;
const sources = (file: string): string[] => JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources;

async function built(entry: string, options: { singleFile?: boolean } = {}) {
  const project = fixtureProject('zod-bundle');
  cleanup(() => project.remove());
  const result = await bundleServer({
    entry: project.path(entry),
    outDir: project.path('out'),
    ...options,
  });
  return { project, result };
}

/** The out directory copied where no node_modules is reachable, as a deploy ships it. */
function shipped(outDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-shipped-'));
  cleanup(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(outDir, dir, { recursive: true });
  return dir;
}

function serve(launcher: string, lines: readonly object[]) {
  const run = spawnSync(process.execPath, [launcher], {
    input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, MCP_FW_CODE_CACHE: 'debug' },
  });
  const frames = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { run, frame: (id: number) => frames.find((frame) => frame.id === id) };
}

const call = (id: number, name: string, args: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const START = [initializeRequest(), { jsonrpc: '2.0', method: 'notifications/initialized' }];

describe('mcp-fw build --bundle: the lazy files', () => {
  it('what core requires lazily goes to files of <name>.lazy/, and the shipped directory serves a JSON Schema tool and a skill with no node_modules', async () => {
    const { project, result } = await built('lazy.js');
    // One file per group of packages that share modules: Ajv's drafts and formats share Ajv.
    expect(result.lazyFiles.map((file) => relative(project.path('out'), file)).sort()).toEqual([
      'lazy.lazy/ajv.cjs',
      'lazy.lazy/cfworker-json-schema.cjs',
      'lazy.lazy/yaml.cjs',
      'lazy.lazy/zod-to-json-schema.cjs',
      // A server without zod: core's zod 4 converter (zod/v4/core).
      'lazy.lazy/zod.cjs',
    ]);
    expect(sources(result.bundleFile).filter((s) => LAZY_PACKAGES.test(s))).toEqual([]);
    const ajv = sources(project.path('out/lazy.lazy/ajv.cjs'));
    for (const pkg of ['ajv', 'ajv-formats', 'fast-uri'])
      expect(ajv.some((s) => s.includes(`/node_modules/${pkg}/`))).toBe(true);
    // Beside its entry (the loaders), yaml's modules alone.
    const yaml = sources(project.path('out/lazy.lazy/yaml.cjs'));
    expect(yaml.filter((s) => !s.includes('/node_modules/yaml/'))).toEqual([
      expect.stringMatching(/(^|\/)mcp-fw-lazy\.js$/),
    ]);

    const dir = shipped(join(result.bundleFile, '..'));
    const { run, frame } = serve(join(dir, basename(result.launcherFile)), [
      ...START,
      call(2, 'square', { n: 3 }),
      call(3, 'square', { n: 'three' }),
      { jsonrpc: '2.0', id: 4, method: 'skills/list' },
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(frame(2).result.content).toEqual([{ type: 'text', text: '9' }]);
    // Ajv, from the lazy file, refused the string.
    expect(JSON.stringify(frame(3))).toContain('must be number');
    // The skill's YAML frontmatter, parsed by yaml from the lazy file.
    expect(frame(4).result.skills[0].frontmatter).toEqual({
      name: 'greeting',
      description: 'Greet the user',
    });
    // On Node 20 the launcher compiles the lazy files it loads through code caches of their own.
    if (VM_CACHE) {
      expect(run.stderr).toContain('mcp-fw code cache: lazy.lazy/ajv.cjs: none yet');
      const again = serve(join(dir, basename(result.launcherFile)), [
        ...START,
        call(2, 'square', { n: 3 }),
      ]);
      expect(again.run.stderr).toMatch(/code cache: lazy\.lazy\/ajv\.cjs: accepted/);
      expect(again.run.stderr).toMatch(/code cache: lazy\.lazy\/yaml\.cjs: accepted/);
      expect(again.run.stderr).not.toContain('zod-to-json-schema');
      expect(again.frame(2).result.content).toEqual([{ type: 'text', text: '9' }]);
    }
  });

  it('a start that needs none of them reads no lazy file', async () => {
    const { result } = await built('server.js');
    const dir = shipped(join(result.bundleFile, '..'));
    expect(result.lazyFiles.length).toBeGreaterThan(0);
    rmSync(join(dir, 'server.lazy'), { recursive: true });
    const { run, frame } = serve(join(dir, basename(result.launcherFile)), [
      ...START,
      call(2, 'add', { a: 2, b: 3 }),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(frame(1).result.serverInfo.name).toBe('zod-bundle');
    expect(frame(2).result.content).toEqual([{ type: 'text', text: '5' }]);
  });

  it("zod's locales but English go to zod-locales.cjs, and z.config(z.locales.de()) still switches zod to German", async () => {
    const { project, result } = await built('de.js');
    const locales = sources(result.bundleFile).filter((s) => s.includes('/zod/v4/locales/'));
    expect(locales.map((s) => s.replace(/.*\/zod\/v4\/locales\//, '')).sort()).toEqual([
      'en.js',
      'index.js',
    ]);
    expect(result.lazyFiles).toContain(project.path('out/de.lazy/zod-locales.cjs'));
    // The locale files alone: zod's util, which they use, is the bundle's, handed over at load.
    const lazy = sources(project.path('out/de.lazy/zod-locales.cjs'));
    expect(lazy.some((s) => s.endsWith('/zod/v4/locales/de.js'))).toBe(true);
    expect(lazy.filter((s) => s.includes('/zod/v4/core/'))).toEqual([]);

    const dir = shipped(project.path('out'));
    const { run, frame } = serve(join(dir, basename(result.launcherFile)), [
      ...START,
      call(2, 'parse', { text: 'x' }),
      call(3, 'add', { a: 2, b: 3 }),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(frame(2).result.content).toEqual([
      { type: 'text', text: 'Ungültige Eingabe: erwartet Zahl, erhalten string' },
    ]);
    expect(frame(3).result.content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('singleFile: true keeps everything in the bundle and removes the lazy files an earlier build left', async () => {
    const { project } = await built('lazy.js');
    expect(existsSync(project.path('out/lazy.lazy/yaml.cjs'))).toBe(true);
    const single = await bundleServer({
      entry: project.path('lazy.js'),
      outDir: project.path('out'),
      singleFile: true,
    });
    expect(single.lazyFiles).toEqual([]);
    // Nor Node's module wrapper (module-wrapper.ts): one file is for other runners too.
    expect(readFileSync(single.bundleFile, 'utf8')).not.toMatch(/^\(function \(exports/);
    expect(existsSync(project.path('out/lazy.lazy'))).toBe(false);
    expect(sources(single.bundleFile).some((s) => LAZY_PACKAGES.test(s))).toBe(true);
    const dir = shipped(project.path('out'));
    const { run, frame } = serve(join(dir, basename(single.launcherFile)), [
      ...START,
      call(2, 'square', { n: 4 }),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(frame(2).result.content).toEqual([{ type: 'text', text: '16' }]);
  });

  it('the ES module bundle (top-level await) requires its lazy files too', async () => {
    const project = fixtureProject('zod-bundle');
    cleanup(() => project.remove());
    writeFileSync(
      project.path('tla.js'),
      `${readFileSync(project.path('lazy.js'), 'utf8')}\nawait Promise.resolve();\n`,
    );
    const result = await bundleServer({
      entry: project.path('tla.js'),
      outDir: project.path('out'),
    });
    expect(result.format).toBe('esm');
    expect(result.lazyFiles).toContain(project.path('out/tla.lazy/ajv.cjs'));
    const dir = shipped(project.path('out'));
    const { run, frame } = serve(join(dir, basename(result.launcherFile)), [
      ...START,
      call(2, 'square', { n: 5 }),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(frame(2).result.content).toEqual([{ type: 'text', text: '25' }]);
  });
});
