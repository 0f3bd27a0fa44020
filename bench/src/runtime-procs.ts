// The runtimes run-runtimes compares: Node, Bun and Deno (the binaries of the root
// devDependencies) serving runtime-http-server.js, and workerd serving the bench worker bundled as
// a Workers build is (scripts/workerd.mjs). Each started process is an HttpServerProcess whose
// pid is the runtime's own, so its CPU is read from /proc/<pid>/stat like Node's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HttpServerProcess } from './http-proc.js';
import { cpuTicks } from './proc.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules/.bin');

/** How a runtime runs a script: its binary and the arguments before the script. */
export interface RuntimeCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** Node (the harness's own), Bun and Deno, each as `npm run start:<runtime>` starts the fixture. */
export const RUNTIMES = {
  node: { command: process.execPath, args: [] },
  bun: { command: join(BIN, 'bun'), args: [] },
  deno: { command: join(BIN, 'deno'), args: ['run', '--allow-net', '--allow-read', '--allow-env'] },
} as const satisfies Record<string, RuntimeCommand>;

interface WorkerdModule {
  bundleWorker(entry: string): Promise<string>;
  workerdConfig(spec: {
    port: number;
    durableObjects: { className: string; binding: string }[];
  }): string;
  WORKERD: string;
}

/** scripts/workerd.mjs, the project's one way of bundling and serving a worker. */
export async function workerdTools(): Promise<WorkerdModule> {
  const url = pathToFileURL(join(ROOT, 'scripts/workerd.mjs')).href;
  return (await import(url)) as WorkerdModule;
}

/**
 * Bundles `entry` for Workers into `dir` with a workerd config serving it on a port workerd
 * picks, legacy sessions in the `McpSessions` Durable Object class (unless `sessions` is false).
 * Returns the bundle's text.
 */
export async function prepareWorker(entry: string, dir: string, sessions = true): Promise<string> {
  const { bundleWorker, workerdConfig } = await workerdTools();
  mkdirSync(dir, { recursive: true });
  const bundle = await bundleWorker(entry);
  writeFileSync(join(dir, 'worker.js'), bundle);
  writeFileSync(
    join(dir, 'config.capnp'),
    workerdConfig({
      port: 0,
      durableObjects: sessions ? [{ className: 'McpSessions', binding: 'MCP_SESSIONS' }] : [],
    }),
  );
  return bundle;
}

const live = new Set<ChildProcess>();

/** Kills every process this module started that still runs. */
export function killRuntimeProcesses(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** A started server, and when its spawn began (performance.now()). */
export interface StartedServer extends HttpServerProcess {
  readonly spawnedAt: number;
}

function closer(child: ChildProcess, signal: NodeJS.Signals): () => Promise<void> {
  return () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        live.delete(child);
        return done();
      }
      child.once('exit', () => {
        live.delete(child);
        done();
      });
      child.kill(signal);
    });
}

/**
 * Starts `script` on `runtime` (it prints `listening <url>` on stdout, as the bench servers do);
 * resolves once it listens. Closed with SIGKILL: a cold-start subject has nothing to flush.
 */
export function startScript(runtime: RuntimeCommand, script: string): Promise<StartedServer> {
  const spawnedAt = performance.now();
  const child = spawn(runtime.command, [...runtime.args, script], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return listening(child, spawnedAt, (text) => /^listening (\S+)$/m.exec(text)?.[1], 'stdout');
}

/** Starts workerd on the config {@link prepareWorker} wrote in `dir`. */
export async function startWorkerd(dir: string): Promise<StartedServer> {
  const { WORKERD } = await workerdTools();
  const spawnedAt = performance.now();
  const child = spawn(WORKERD, ['serve', 'config.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  return listening(
    child,
    spawnedAt,
    (text) => {
      const port = /"event":"listen","socket":"http","port":(\d+)/.exec(text)?.[1];
      return port ? `http://127.0.0.1:${port}/mcp` : undefined;
    },
    'control',
  );
}

function listening(
  child: ChildProcess,
  spawnedAt: number,
  urlIn: (text: string) => string | undefined,
  from: 'stdout' | 'control',
): Promise<StartedServer> {
  live.add(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d).slice(-4000)));
  const stream = from === 'stdout' ? child.stdout! : (child.stdio[3] as NodeJS.ReadableStream);
  return new Promise<StartedServer>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening server within 30 s:\n${output}`));
    }, 30_000);
    stream.on('data', (d: Buffer) => {
      text += d;
      const url = urlIn(text);
      if (!url) return;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.on('data', () => {});
      resolve({ pid: child.pid!, url, spawnedAt, close: closer(child, 'SIGKILL') });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
}

/**
 * One legacy `initialize` on a fresh connection: resolves with when its answer had arrived
 * (performance.now()) and the server's CPU by then (ms, every thread).
 */
export function firstInitialize(
  server: StartedServer,
  ticksPerSecond: number,
): Promise<{ at: number; cpuMs: number }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'mcp-fw-bench', version: '1.0.0' },
    },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      server.url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.once('end', () => {
          const at = performance.now();
          if (res.statusCode !== 200 || !text.includes('"protocolVersion":"2025-11-25"'))
            return reject(
              new Error(`initialize answered ${res.statusCode}: ${text.slice(0, 300)}`),
            );
          resolve({ at, cpuMs: (cpuTicks(server.pid) * 1000) / ticksPerSecond });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * One instance of the serverless function `module` as the local serverless platform
 * (scripts/serverless-host.mjs `--instance`) starts it: a fresh node process that imports the
 * module (the function's cold start) and serves its default export; `env` carries REDIS_URL.
 */
export function startServerlessInstance(
  module: string,
  env: Record<string, string>,
): Promise<StartedServer> {
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [join(ROOT, 'scripts/serverless-host.mjs'), '--instance', module, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  return listening(
    child,
    spawnedAt,
    (text) => {
      const origin = /^listening (http:\/\/\S+)\/$/m.exec(text)?.[1];
      return origin ? `${origin}/mcp` : undefined;
    },
    'stdout',
  );
}

/** A redis-server of its own on a free loopback port (Debian's), for the serverless function. */
export async function startRedisServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await new Promise<number>((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  await new Promise<void>((done, fail) => {
    let text = '';
    child.stdout?.on('data', (d: Buffer) => {
      text += d;
      if (/Ready to accept connections/.test(text)) done();
    });
    child.once('error', (error) =>
      fail(
        new Error(
          `redis-server did not start (${error.message}); scripts/system-packages.sh installs it`,
        ),
      ),
    );
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${text}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, close: closer(child, 'SIGKILL') };
}
