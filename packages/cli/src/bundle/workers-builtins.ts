import { relative } from 'node:path';
import type { Plugin } from 'esbuild';

// Node built-ins workerd (nodejs_compat) loads but cannot serve: stubs whose functions throw
// when called, or (fs) an in-memory file system that holds none of the project's files. A
// module worker that imports one at top level would start, then fail on first use, so the
// build refuses it instead. The rest (buffer, crypto, events, stream, util, url, zlib, …) are
// implemented by workerd and stay imports of the runtime's own modules.
const UNSERVED = new Set([
  'child_process',
  'cluster',
  'dgram',
  'fs',
  'fs/promises',
  'http2',
  'inspector',
  'readline',
  'readline/promises',
  'repl',
  'sqlite',
  'trace_events',
  'tty',
  'v8',
  'vm',
  'wasi',
  'worker_threads',
]);

// Bare names esbuild would otherwise try to resolve in node_modules (`import fs from 'fs'`).
const BARE = new Set([
  ...UNSERVED,
  'assert',
  'assert/strict',
  'async_hooks',
  'buffer',
  'console',
  'constants',
  'crypto',
  'diagnostics_channel',
  'dns',
  'events',
  'http',
  'https',
  'module',
  'net',
  'os',
  'path',
  'path/posix',
  'perf_hooks',
  'process',
  'punycode',
  'querystring',
  'stream',
  'stream/promises',
  'stream/web',
  'string_decoder',
  'timers',
  'timers/promises',
  'tls',
  'url',
  'util',
  'util/types',
  'zlib',
]);

/** A top-level import of a Node built-in Workers cannot serve, and who imports it. */
export interface UnservedImport {
  /** The built-in, without `node:`. */
  readonly builtin: string;
  /** The importing file, relative to the project. */
  readonly importer: string;
}

/**
 * Keeps Node built-ins out of a Workers bundle (workerd's nodejs_compat provides them) and
 * collects the top-level (static) imports of those it cannot serve, such as `node:fs`. A
 * dynamic `import('node:fs')` is left alone: it runs only when called, e.g. on a Node-only path.
 */
export function workersBuiltinsPlugin(projectDir: string, found: UnservedImport[]): Plugin {
  return {
    name: 'mcp-fw-workers-builtins',
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
        const prefixed = args.path.startsWith('node:');
        const name = prefixed ? args.path.slice(5) : args.path;
        if (!prefixed && !BARE.has(name)) return undefined;
        if (UNSERVED.has(name) && args.kind === 'import-statement')
          found.push({ builtin: name, importer: relative(projectDir, args.importer) });
        return { path: `node:${name}`, external: true };
      });
    },
  };
}
