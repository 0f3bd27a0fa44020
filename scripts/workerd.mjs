// Serves a module worker in real workerd (Cloudflare's runtime: the binary of the `workerd` npm
// package, a root devDependency) on loopback, as `wrangler dev` would but without wrangler
// (which needs Node 22): the entry is bundled by esbuild the way a Workers build is (the
// `workerd` and `worker` conditions and no `node` one, so core's runtime-neutral variants run),
// and served from a generated capnp config. The port comes back over workerd's control fd, so
// `port: 0` needs no guess at a free one.
//
// Used by examples/conformance's start:workers and by the tests (packages/core/test/support).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WORKERD = join(ROOT, 'node_modules/.bin/workerd');
/** The compatibility date the workers are served at (also the templates' wrangler.jsonc). */
export const COMPATIBILITY_DATE = '2026-11-01';

/** Bundles `entry` for Workers into one ES module, returned as text. */
export async function bundleWorker(entry) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker'],
    // Workers' Node compatibility layer (on by default since 2026-08) provides these.
    external: ['node:*'],
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** The capnp config of one worker module with its bindings and Durable Object classes. */
export function workerdConfig({ port, durableObjects = [], vars = {} }) {
  const bindings = [
    ...durableObjects.map(
      (o) => `(name = "${o.binding}", durableObjectNamespace = "${o.className}")`,
    ),
    ...Object.entries(vars).map(([k, v]) => `(name = "${k}", text = ${JSON.stringify(v)})`),
  ];
  const classes = durableObjects.map(
    (o) => `(className = "${o.className}", uniqueKey = "${o.className}")`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  bindings = [ ${bindings.join(', ')} ],
  durableObjectNamespaces = [ ${classes.join(', ')} ],
  ${durableObjects.length > 0 ? 'durableObjectStorage = (inMemory = void),' : ''}
);
`;
}

/**
 * Bundles `spec.entry` (or takes `spec.module`, a module worker bundled already, e.g. by
 * `mcp-fw build --target workers`, as it is) and serves it on 127.0.0.1:`spec.port` (0: a port
 * workerd picks).
 * Resolves once workerd listens, with its origin, its output so far, and `stop()`.
 */
export async function startWorkerd(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-workerd-'));
  writeFileSync(
    join(dir, 'worker.js'),
    spec.module ? readFileSync(spec.module) : await bundleWorker(spec.entry),
  );
  writeFileSync(join(dir, 'config.capnp'), workerdConfig({ port: spec.port ?? 0, ...spec }));
  const child = spawn(WORKERD, ['serve', 'config.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', spec.inherit ? 'inherit' : 'pipe', spec.inherit ? 'inherit' : 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  child.once('exit', cleanup);
  const port = await new Promise((resolvePort, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`workerd did not listen within 15 s:\n${output}`));
    }, 15_000);
    child.stdio[3].on('data', (d) => {
      text += d;
      const match = /"event":"listen","socket":"http","port":(\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    // workerd drains open connections on SIGTERM (a client's SSE stream can hold it for
    // minutes), so it gets a second before SIGKILL.
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const kill = setTimeout(() => child.kill('SIGKILL'), 1_000);
        child.once('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
