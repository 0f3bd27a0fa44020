// Runs a module worker in real workerd (Cloudflare's runtime, the binary from the `workerd` npm
// package) on loopback: the entry is bundled by esbuild as a Workers build would (the `workerd`
// and `worker` conditions, no `node` one, so core's runtime-neutral variants are what runs) and
// served from a generated capnp config. The port comes back over workerd's control fd, so there
// is no race for a guessed free port.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** A worker served by workerd. */
export interface RunningWorker {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** What workerd wrote to stdout and stderr (the worker's console output among it). */
  output(): string;
  stop(): Promise<void>;
}

/** What to serve: a bundled module worker, and the Durable Object classes it exports. */
export interface WorkerSpec {
  /** The worker's entry module (TypeScript or JavaScript), bundled with its imports. */
  readonly entry: string;
  /** Durable Object classes the entry exports, each bound to the env under its `binding`. */
  readonly durableObjects?: readonly { readonly className: string; readonly binding: string }[];
  /** Extra text bindings (env values). */
  readonly vars?: Readonly<Record<string, string>>;
}

export const WORKERD = join(REPO_ROOT, 'node_modules/.bin/workerd');

/** Bundles `entry` for Workers into one ES module (the code workerd runs). */
export async function bundleWorker(entry: string): Promise<string> {
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

/** Starts workerd serving `spec` on a loopback port workerd picks. */
export async function startWorker(spec: WorkerSpec): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-workerd-'));
  writeFileSync(join(dir, 'worker.js'), await bundleWorker(spec.entry));
  const objects = spec.durableObjects ?? [];
  const bindings = [
    ...objects.map((o) => `(name = "${o.binding}", durableObjectNamespace = "${o.className}")`),
    ...Object.entries(spec.vars ?? {}).map(
      ([k, v]) => `(name = "${k}", text = ${JSON.stringify(v)})`,
    ),
  ];
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${bindings.join(', ')} ],
  durableObjectNamespaces = [ ${objects.map((o) => `(className = "${o.className}", uniqueKey = "${o.className}")`).join(', ')} ],
  ${objects.length > 0 ? 'durableObjectStorage = (inMemory = void),' : ''}
);
`;
  writeFileSync(join(dir, 'config.capnp'), config);
  const child = spawn(WORKERD, ['serve', 'config.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const port = await listenPort(child, () => output);
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// workerd writes one JSON line per socket to the control fd once it listens.
function listenPort(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const control = child.stdio[3] as NodeJS.ReadableStream;
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`workerd did not listen within 15 s:\n${output()}`));
    }, 15_000);
    control.on('data', (d) => {
      text += d;
      const match = /"event":"listen","socket":"http","port":(\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (${code}) before listening:\n${output()}`));
    });
  });
}
