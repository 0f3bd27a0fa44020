import { statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { CliError } from '../output/cli-error.js';
import { entryExports } from './bundle-server.js';
import { type UnservedImport, workersBuiltinsPlugin } from './workers-builtins.js';
import type { DurableObjectBinding } from './wrangler-config.js';

/** What {@link bundleWorker} bundles. */
export interface WorkerBundleRequest {
  /** The built module: a module worker (`export default { fetch }`) or one that exports a server. */
  readonly entry: string;
  /** The file to write, e.g. `dist/worker.bundle.mjs`. */
  readonly outFile: string;
  /** The project's directory (errors name files relative to it). */
  readonly projectDir: string;
  /** The Durable Object binding for legacy sessions when the entry exports a server. */
  readonly sessions: DurableObjectBinding;
  /** Class names the wrangler config binds, which a module worker must export. */
  readonly durableObjectClasses?: readonly string[];
}

/** What {@link bundleWorker} wrote. */
export interface WorkerBundleResult {
  readonly file: string;
  readonly bytes: number;
  /** `server`: the entry exported a server, wrapped in `mcpWorker`; `worker`: bundled as it is. */
  readonly kind: 'server' | 'worker';
  /** The names the bundle exports (`default`, and the Durable Object classes). */
  readonly exports: readonly string[];
}

/**
 * Bundles a built server for Cloudflare Workers: one ES module, `export default { fetch }` plus
 * the Durable Object class of legacy sessions, resolved with the `workerd` and `worker`
 * conditions (core's runtime-neutral variants, no-eval validation) and Node built-ins left to
 * workerd's nodejs_compat. A module that exports a server is wrapped in `mcpWorker` and
 * imported on the first request, since Workers refuse random values and timers at module scope.
 */
export async function bundleWorker(request: WorkerBundleRequest): Promise<WorkerBundleResult> {
  const esbuild = await import('esbuild');
  const shown = (file: string) => relative(request.projectDir, file) || file;
  const names = await entryExports(esbuild, request.entry);
  const kind = names.includes('server') ? 'server' : names.includes('default') ? 'worker' : null;
  if (kind === null)
    throw new CliError(
      `${shown(request.entry)} exports no server and no module worker: it serves itself (stdio or node:http), and a Worker has neither stdio nor a socket to listen on.`,
      'Export the server (export const server = createServer(...)) and pass that module with --entry, or export a module worker (export default mcpWorker(...) from @mcp-fw/cloudflare).',
    );
  if (kind === 'worker') {
    const missing = (request.durableObjectClasses ?? []).filter((c) => !names.includes(c));
    if (missing.length > 0)
      throw new CliError(
        `${shown(request.entry)} does not export ${missing.join(', ')}, the Durable Object class${missing.length > 1 ? 'es' : ''} the wrangler config binds.`,
        `Export it from the worker module: export const ${missing[0]} = worker.SessionObject;`,
      );
  }
  const unserved: UnservedImport[] = [];
  try {
    await esbuild.build({
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      conditions: ['workerd', 'worker'],
      outfile: request.outFile,
      minifySyntax: true,
      minifyWhitespace: true,
      // Classes are found by name (derived schemas, messages, the Durable Object's class_name).
      keepNames: true,
      legalComments: 'none',
      sourcemap: 'linked',
      logLevel: 'silent',
      plugins: [workersBuiltinsPlugin(request.projectDir, unserved)],
      ...(kind === 'server'
        ? {
            stdin: {
              contents: serverWorkerSource(request.entry, request.sessions),
              resolveDir: dirname(request.entry),
              sourcefile: 'mcp-fw-worker.js',
              loader: 'js' as const,
            },
          }
        : { entryPoints: [request.entry] }),
    });
  } catch (error) {
    const text = String((error as Error).message ?? error);
    if (kind === 'server' && /Could not resolve "@mcp-fw\/cloudflare"/.test(text))
      throw new CliError(
        `${shown(request.entry)} exports a server, which a Worker serves through @mcp-fw/cloudflare, and the project does not have that package.`,
        'Install it: npm install @mcp-fw/cloudflare',
      );
    throw new CliError(
      `esbuild could not bundle ${shown(request.entry)} for Workers: ${text}`,
      'Fix the import it names (a Worker has no node_modules at run time: every package must be bundled).',
    );
  }
  if (unserved.length > 0) {
    const list = unserved.map((u) => `node:${u.builtin} (imported by ${u.importer})`);
    throw new CliError(
      `The worker imports Node built-ins Workers cannot serve at top level: ${[...new Set(list)].join(', ')}. workerd has no file system with the project's files, no child processes and no worker threads.`,
      'Keep them out of the worker: read files at build time (or from KV/R2/assets), or import them with await import() on a path the Worker never takes.',
    );
  }
  return {
    file: request.outFile,
    bytes: statSync(request.outFile).size,
    kind,
    exports: kind === 'server' ? ['default', request.sessions.className] : names,
  };
}

/**
 * The module worker for an entry that exports a server: the entry is imported on the first
 * request (esbuild keeps it a lazily run part of the one bundle), then served by mcpWorker,
 * 2026-07-28 in the Worker and each legacy session in a Durable Object of `sessions.className`.
 */
function serverWorkerSource(entry: string, sessions: DurableObjectBinding): string {
  const module = JSON.stringify(`./${basename(entry)}`);
  return `import { mcpWorker } from '@mcp-fw/cloudflare';
let loaded;
function worker() {
  loaded ??= import(${module}).then(async (entry) => {
    const server = await (entry.server ?? entry.default);
    return mcpWorker({ server: () => server, sessions: ${JSON.stringify(sessions.name)} });
  });
  return loaded;
}
export default {
  async fetch(request, env) {
    return (await worker()).fetch(request, env);
  },
};
export class ${sessions.className} {
  #state;
  #env;
  #object;
  constructor(state, env) {
    this.#state = state;
    this.#env = env;
  }
  async fetch(request) {
    this.#object ??= new (await worker()).SessionObject(this.#state, this.#env);
    return this.#object.fetch(request);
  }
}
`;
}

/** Where the Workers bundle goes: beside the entry, as `worker.bundle.mjs`. */
export function workerBundleFile(entry: string): string {
  return join(dirname(entry), 'worker.bundle.mjs');
}
