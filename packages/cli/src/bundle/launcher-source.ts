/** What the launcher knows of a file it compiles: content hash, encoding, wrapper written in. */
export interface LauncherFacts {
  readonly hash: string;
  readonly encoding: 'latin1' | 'utf8';
  /** Node's module wrapper is in the file's text (module-wrapper.ts). */
  readonly wrapped: boolean;
}

/** A lazy file of the bundle (lazy-file.ts), relative to it, which the launcher caches too. */
export interface LazyLauncherFile extends LauncherFacts {
  readonly file: string;
}

/**
 * The source of the launcher written beside a bundle: a small CommonJS file that loads the bundle
 * through a V8 code cache, so that a second start skips compiling it. On Node 22.1+ it uses
 * `module.enableCompileCache()`; on Node 20 it compiles the bundle with `vm.Script` and its
 * `cachedData`, written once per bundle and V8 version after the first start. Everything about
 * the cache is best effort: a missing, stale or unwritable cache only costs the compile, and
 * nothing is ever written to stdout (it carries the protocol in stdio mode).
 *
 * `MCP_FW_CODE_CACHE=0` turns the cache off; `MCP_FW_CODE_CACHE=debug` reports to stderr.
 */
export function launcherSource(
  bundleFile: string,
  facts: LauncherFacts,
  lazyFiles: readonly LazyLauncherFile[] = [],
): string {
  // By the request the bundle makes (`./<name>.lazy/ajv.cjs`): the same facts as for the bundle.
  const lazy = Object.fromEntries(lazyFiles.map((lazyFile) => [`./${lazyFile.file}`, lazyFile]));
  return `#!/usr/bin/env node
'use strict';
// Written by mcp-fw build --bundle: starts ${bundleFile} through a V8 code cache.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const bundle = path.join(__dirname, ${JSON.stringify(bundleFile)});
const mode = process.env.MCP_FW_CODE_CACHE;
const debug = (message) => { if (mode === 'debug') process.stderr.write('mcp-fw code cache: ' + message + '\\n'); };

// The name carries the file's content hash (taken at build time): V8 checks only the length of
// the source a cache was made from, so a rebuilt bundle of the same size must not find it.
const cacheName = (file, hash) => file + '.' + hash + '.' + process.versions.v8 + '.' + process.arch + '.v8cache';
// Beside the bundle, else (a read-only install) in a directory of this user's own under the
// temporary directory: compiled code from a place others can write to would run as ours.
function privateDir() {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = path.join(require('node:os').tmpdir(), 'mcp-fw-code-cache-' + (uid === undefined ? 'user' : uid));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) throw new Error('not private');
  return dir;
}
// A lazy file's cache goes beside the bundle too, under its path with '/' as '+'.
const cacheFiles = (name) => [() => path.join(__dirname, '.' + name), () => path.join(privateDir(), name)];

// Up to size bytes of fd into buffer; how many there were.
function readInto(fd, buffer, size) {
  let read = 0;
  for (let n = 1; read < size && n > 0; read += n) n = fs.readSync(fd, buffer, read, size - read, read);
  return read;
}

// A file's source and its code cache (the first of files that opens), read through one buffer:
// the source is copied out of it into a string, then the cache is read over it. Fresh memory is
// what a start pays most for on some machines (a VM faults in every new page), and this way the
// cache costs none: its bytes land on pages the source already brought in.
function readSourceAndCache(file, encoding, files) {
  let cacheFd;
  let cacheFile;
  let cacheSize = 0;
  for (const fileOf of files) {
    let opened;
    try {
      cacheFile = fileOf();
      opened = fs.openSync(cacheFile, 'r');
      // A directory opens too (and only fails to read): it is no cache, try the next place.
      const stat = fs.fstatSync(opened);
      if (stat.isFile()) {
        cacheFd = opened;
        cacheSize = stat.size;
        break;
      }
    } catch {}
    if (opened !== undefined) fs.closeSync(opened);
  }
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.allocUnsafeSlow(Math.max(size, cacheSize));
    // latin1 when the build found the file ASCII: its bytes are its characters, copied once,
    // without UTF-8 decoding.
    const source = buffer.toString(encoding, 0, readInto(fd, buffer, size));
    let cached;
    if (cacheFd !== undefined) {
      try {
        cached = { file: cacheFile, data: buffer.subarray(0, readInto(cacheFd, buffer, cacheSize)) };
      } catch {}
    }
    return { source, cached };
  } finally {
    fs.closeSync(fd);
    if (cacheFd !== undefined) fs.closeSync(cacheFd);
  }
}

function writeCache(files, data) {
  for (const fileOf of files) {
    let temporary;
    try {
      const file = fileOf();
      // Written aside, then renamed: a server starting meanwhile reads a whole cache or none.
      temporary = file + '.' + process.pid;
      fs.writeFileSync(temporary, data);
      fs.renameSync(temporary, file);
      return file;
    } catch {
      try {
        if (temporary) fs.rmSync(temporary, { force: true });
      } catch {}
    }
  }
  return undefined;
}

// A code cache records V8's flags and is rejected under others. The launcher sets none, but a
// server may opt in to one while it runs (serveStdio's youngGeneration: 'compact'), so V8's
// default is put back before the cache is written: the next start, flagless, accepts it.
const userTunedHeap = /semi[-_]space/.test(process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || ''));
function startFlags() {
  if (!userTunedHeap) require('node:v8').setFlagsFromString('--semi-space-growth-factor=2');
}

// The files of the bundle's lazy requires (yaml, Ajv, ...), loaded on first use through a cache
// of their own: a server whose start needs one (a JSON Schema tool needs Ajv) then skips its
// compile as it does the bundle's.
const lazyFiles = ${JSON.stringify(lazy)};
const lazyLoaded = new Map();

// Compiles a CommonJS file through its code cache and runs it as a module, as require would.
function runCached(file, { hash, encoding, wrapped }, parent, label) {
  const vm = require('node:vm');
  const files = cacheFiles(cacheName(path.relative(__dirname, file).split(path.sep).join('+'), hash));
  const read = readSourceAndCache(file, encoding, files);
  const cached = read.cached;
  let source = read.source;
  // A hashbang kept from the entry is no JavaScript inside the module wrapper (same length kept).
  if (source.startsWith('#!')) source = '//' + source.slice(2);
  // Wrapped by the build, the text is compiled as read: no copy of it made to wrap it here.
  const script = new vm.Script(wrapped ? source : Module.wrap(source), {
    filename: file,
    cachedData: cached && cached.data,
    importModuleDynamically: vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const rejected = cached !== undefined && script.cachedDataRejected === true;
  debug(label + (cached === undefined ? 'none yet' : rejected ? 'rejected (' + cached.file + ')' : 'accepted (' + cached.file + ')'));
  if (cached === undefined || rejected) {
    // Written once, at exit: by then V8 has compiled the functions the start-up ran, so the
    // cache covers them too, and writing it never delays an answer.
    process.once('exit', () => {
      try {
        startFlags();
        const written = writeCache(files, script.createCachedData());
        debug(label + (written ? 'written to ' + written : 'not writable'));
      } catch {}
    });
  }
  const fileModule = new Module(file, parent);
  fileModule.filename = file;
  fileModule.paths = Module._nodeModulePaths(path.dirname(file));
  const compiled = script.runInThisContext();
  const require_ = (id) => (Object.hasOwn(lazyFiles, id) && path.dirname(file) === __dirname ? requireLazy(id, fileModule) : fileModule.require(id));
  require_.resolve = (request, options) => Module._resolveFilename(request, fileModule, false, options);
  require_.main = require.main;
  require_.cache = require.cache;
  compiled.call(fileModule.exports, fileModule.exports, require_, fileModule, file, path.dirname(file));
  fileModule.loaded = true;
  return fileModule.exports;
}

// Once per file, as require would: every loader of one file shares its modules.
function requireLazy(id, parent) {
  if (!lazyLoaded.has(id)) {
    const lazy = lazyFiles[id];
    lazyLoaded.set(id, runCached(path.join(__dirname, lazy.file), lazy, parent, lazy.file + ': '));
  }
  return lazyLoaded.get(id);
}

function runWithVmCache() {
  runCached(bundle, ${JSON.stringify(facts)}, module, '');
}

// An ES module bundle (code with top-level await) is imported; vm.Script cannot cache those.
const load = () => (bundle.endsWith('.mjs') ? import(require('node:url').pathToFileURL(bundle).href) : require(bundle));
if (mode === '0') {
  load();
} else if (typeof Module.enableCompileCache === 'function') {
  const result = Module.enableCompileCache();
  debug('node compile cache ' + (result && result.directory ? result.directory : 'unavailable'));
  load();
} else if (bundle.endsWith('.mjs')) {
  debug('off (an ES module bundle is cached on Node 22.1 and later only)');
  load();
} else {
  runWithVmCache();
}
`;
}
