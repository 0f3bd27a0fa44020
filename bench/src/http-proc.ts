import { spawn, type ChildProcess } from 'node:child_process';
import { serverRuntime } from './config.js';

const live = new Set<ChildProcess>();

/** Kills every HTTP server still running; the harnesses call this on any way out. */
export function killHttpServers(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** A spawned HTTP server: it prints `listening <url>` and exits when its stdin closes. */
export interface HttpServerProcess {
  readonly pid: number;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts `script` on `runtime` (by default the harness's node, or BENCH_NODE) with `nodeArgs`
 * before it: another runtime's binary and its own arguments (`deno`, `run --allow-net …`) work too.
 */
export async function startHttpServer(
  script: string,
  args: readonly string[] = [],
  nodeArgs: readonly string[] = [],
  runtime: string = serverRuntime,
): Promise<HttpServerProcess> {
  const child = spawn(runtime, [...nodeArgs, script, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const match = /^listening (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`${script} exited before listening\n${stderr}`)));
  });
  return {
    pid: child.pid!,
    url,
    async close() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      live.delete(child);
    },
  };
}
