import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nodeEntry } from '../../../../test-support/node-entry.ts';
import { patience } from '../../../../test-support/patience.ts';
import { freePort, onFreePort } from '../../../../test-support/ports.ts';

// For the tests that need a port nobody listens on.
export { freePort };

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');

/** The Debian binaries these tests drive (`scripts/system-packages.sh` installs them). */
export const REDIS_SERVER = which('redis-server');
export const HAPROXY =
  which('haproxy') ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : undefined);

function which(name: string): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` holds a listening TCP socket on `port` (Linux: /proc/net/tcp names the
 * socket's inode, /proc/<pid>/fd links to it). A connection accepted on the port proves less:
 * another test file that took the port meanwhile accepts too, while HAProxy exits on
 * "Address already in use".
 */
export function listensOn(pid: number, port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex, st 0A is LISTEN, the 10th field the inode.
      if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A') inodes.add(fields[9]);
    }
  }
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(
          /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '',
        );
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Resolves when `child` writes a line matching `pattern` (stdout or stderr), with the match. */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    let text = '';
    const timer = setTimeout(
      () => fail(new Error(`${what} did not start in time:\n${text}`)),
      // tsx compiling the fixture takes a while, longer on a busy machine.
      patience(30_000),
    );
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) {
        clearTimeout(timer);
        done(match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code ?? signal}):\n${text}`));
    });
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill(signal);
  });
}

/** A redis-server of its own on a loopback port, without persistence. */
export class RedisProcess {
  #child?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisProcess> {
    // A port found free may be taken by another test file before redis-server binds it: it exits
    // saying "Address already in use", and a fresh port is tried. Whatever failed is stopped.
    return onFreePort(async (port) => {
      const redis = new RedisProcess(port);
      try {
        await redis.restart();
        return redis;
      } catch (error) {
        await redis.stop();
        throw error;
      }
    });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on the same port, empty. */
  async restart(): Promise<void> {
    const child = spawn(
      REDIS_SERVER!,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    await waitForOutput(child, /Ready to accept connections/, 'redis-server');
  }

  async stop(): Promise<void> {
    if (this.#child) await stop(this.#child);
  }

  /** Runs one command through redis-cli (for measurements and checks). */
  cli(...args: string[]): string {
    return execFileSync('redis-cli', ['-p', String(this.port), ...args], {
      encoding: 'utf8',
    }).trim();
  }
}

/**
 * `config` with `noreuseport` in its global section. HAProxy binds with SO_REUSEPORT by default,
 * so a second HAProxy on the same port (another test file's, after both probed the same free
 * port) would share the port with it, each getting part of the connections, instead of failing.
 */
export function exclusive(config: string): string {
  return /^global[ \t]*$/m.test(config)
    ? config.replace(/^global[ \t]*$/m, 'global\n  noreuseport')
    : `global\n  noreuseport\n${config}`;
}

/** HAProxy round-robin in front of `ports`: no cookie, no stickiness, a TCP health check per node. */
export class Balancer {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {}

  static start(ports: readonly number[]): Promise<Balancer> {
    return Balancer.startWith((port) => Balancer.#config(ports, port));
  }

  /**
   * HAProxy on `port` exactly, for a cluster whose nodes know the balancer's URL before it
   * listens (their resource, their redirect URI): rejects with HAProxy's "Address already in
   * use" alert when the port was taken meanwhile, so the caller can start everything again
   * through `onFreePort`.
   */
  static startOn(ports: readonly number[], port: number): Promise<Balancer> {
    return Balancer.#start((p) => Balancer.#config(ports, p), port, []);
  }

  /**
   * HAProxy with the configuration `config(port)` writes, whose frontend binds 127.0.0.1:`port`
   * (a configuration from the documentation, with its addresses made local). `output` collects
   * what HAProxy logs (server state changes, alerts).
   */
  static async startWith(
    config: (port: number) => string,
    output: string[] = [],
  ): Promise<Balancer> {
    // A port taken meanwhile fails with HAProxy's "Address already in use" alert: a fresh one.
    return onFreePort((port) => Balancer.#start(config, port, output));
  }

  static #config(ports: readonly number[], port: number): string {
    return [
      'global',
      '  maxconn 512',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 120s',
      '  timeout server 120s',
      '  retries 2',
      '  option redispatch',
      'frontend mcp',
      `  bind 127.0.0.1:${port}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      // The client's address, for nodes that trust this proxy (MCP_TRUSTED_PROXIES).
      '  option forwardfor',
      // Which node answered (n1, n2, …, in the order of `ports`), for tests that show it.
      '  http-response set-header x-served-by %s',
      ...ports.map((p, i) => `  server n${i + 1} 127.0.0.1:${p} check inter 300ms fall 1 rise 1`),
      '',
    ].join('\n');
  }

  static async #start(
    makeConfig: (port: number) => string,
    port: number,
    output: string[],
  ): Promise<Balancer> {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-haproxy-'));
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(config, exclusive(makeConfig(port)));
    const child = spawn(HAPROXY!, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => output.push(chunk.toString());
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    // Its output is all read once stdio closes (after 'exit', possibly): the alert must be in the error.
    const closed = new Promise((r) => child.once('close', r));
    const balancer = new Balancer(port, child, dir);
    // Listening once this HAProxy holds the port's listening socket (not when the port merely
    // accepts: a test file that took it accepts too); an exit means the port was taken, and its
    // alert ("Address already in use") is in the error, for onFreePort to try another port.
    const deadline = Date.now() + patience(5_000);
    for (;;) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await balancer.stop();
        await closed;
        throw new Error(`haproxy did not listen on ${port}:\n${output.join('')}`);
      }
      if (child.pid !== undefined && listensOn(child.pid, port)) return balancer;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  async stop(): Promise<void> {
    await stop(this.child);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const FIXTURE = join(REPO_ROOT, 'packages/redis/test/fixtures/cluster-server.ts');

/** One server instance as a real process: `serveFromArgs --http --redis <url>`. */
export class NodeProcess {
  private constructor(
    readonly name: string,
    readonly port: number,
    readonly child: ChildProcess,
    /** The line it announced itself with (`MCP server listening on … with shared state in Redis`). */
    readonly announced: string,
  ) {}

  static start(
    name: string,
    redisUrl: string,
    env: Record<string, string> = {},
  ): Promise<NodeProcess> {
    const entry = nodeEntry(FIXTURE);
    return NodeProcess.startProgram(
      name,
      [
        ...entry.args,
        '--http',
        // REDIS_URL in `env` instead of the flag: serveFromArgs reads either.
        ...(env.REDIS_URL === undefined ? ['--redis', redisUrl] : []),
      ],
      {
        ...entry.env,
        ...env,
        ...(env.REDIS_URL === undefined ? {} : { REDIS_URL: redisUrl }),
      },
    );
  }

  /**
   * Runs `node <args> --port 0` and resolves once the program announces
   * `listening on http://127.0.0.1:<port>/`.
   */
  static async startProgram(
    name: string,
    args: readonly string[],
    env: Record<string, string> = {},
  ): Promise<NodeProcess> {
    // Port 0: the node picks a free port itself (no race with other test files for it).
    const child = spawn(process.execPath, [...args, '--port', '0'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_NAME: name, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const [line, port] = await waitForOutput(
      child,
      /listening on http:\/\/127\.0\.0\.1:(\d+)\/.*\n/,
      `node ${name}`,
    );
    return new NodeProcess(name, Number(port), child, line);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return stop(this.child, signal);
  }
}

/** A redis-server, `count` server processes on it and HAProxy in front of them. */
export class Cluster {
  private constructor(
    readonly redis: RedisProcess,
    readonly nodes: NodeProcess[],
    readonly balancer: Balancer,
  ) {}

  static async start(count = 3, env: Record<string, string> = {}): Promise<Cluster> {
    const redis = await RedisProcess.start();
    const names = ['a', 'b', 'c', 'd', 'e'].slice(0, count);
    const started = await Promise.allSettled(
      names.map((n) => NodeProcess.start(n, redis.url, env)),
    );
    const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      return new Cluster(redis, nodes, await Balancer.start(nodes.map((n) => n.port)));
    } catch (error) {
      // A test whose cluster did not start has nothing to stop: leave no process behind.
      await Promise.all(nodes.map((n) => n.kill()));
      await redis.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.balancer.stop();
    await Promise.all(this.nodes.map((n) => n.kill()));
    await this.redis.stop();
  }
}
