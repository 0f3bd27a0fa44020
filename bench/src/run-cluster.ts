// Benchmarks shared state on Redis (@mcp-fw/redis) against the in-memory default, in one run:
// per-call server CPU and latency of a legacy-session call and of a 2026-07-28 call, each on an
// in-memory node and on a Redis node; Redis commands per call; notification fan-out latency from
// one node to a listen stream on another; Redis memory per idle session and per event kept.
// Needs redis-server (scripts/system-packages.sh installs it). Usage: `npm run bench:cluster`.
// Not a test: it asserts nothing about timing, it only reports.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { redisStore, type RedisEventStore } from '@mcp-fw/redis';
import { envInt } from './config.js';
import { cpuNanos } from './proc.js';
import { median, quantile } from './stats.js';

const CALLS = envInt('BENCH_CLUSTER_CALLS', 3_000);
const SESSIONS = envInt('BENCH_CLUSTER_SESSIONS', 2_000);
const EVENTS = envInt('BENCH_CLUSTER_EVENTS', 20_000);
const FANOUT = envInt('BENCH_CLUSTER_FANOUT', 300);

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill();
});

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    let text = '';
    const on = (chunk: Buffer) => {
      text += chunk.toString();
      const m = pattern.exec(text);
      if (m) done(m);
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${text}`)));
  });
}

async function startRedis(): Promise<{ port: number; cli: (...args: string[]) => string }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  await waitFor(child, /Ready to accept connections/);
  return {
    port,
    cli: (...args) =>
      execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).trim(),
  };
}

async function startNode(redisUrl?: string): Promise<{ url: string; pid: number }> {
  const args = [
    new URL('./cluster-node.js', import.meta.url).pathname,
    ...(redisUrl ? ['--redis', redisUrl] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const [, url] = await waitFor(child, /listening (\S+)/);
  return { url, pid: child.pid! };
}

const JSON_AND_SSE = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
};

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
}

async function openSession(url: string): Promise<Record<string, string>> {
  const res = await post(url, INIT);
  await res.text();
  const headers = {
    'mcp-session-id': res.headers.get('mcp-session-id')!,
    'mcp-protocol-version': '2025-11-25',
  };
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return headers;
}

interface CallFigures {
  medianUs: number;
  p99Us: number;
  cpuUsPerCall: number;
  redisRoundTrips?: number;
}

/** Sequential calls (one in flight), after a warm-up: latency and the server's CPU per call. */
async function calls(
  node: { url: string; pid: number },
  era: 'legacy' | 'modern',
  redis?: { port: number },
): Promise<CallFigures> {
  const headers =
    era === 'legacy'
      ? await openSession(node.url)
      : { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' };
  const one = async (id: number) => {
    const params: Record<string, unknown> = { name: 'add', arguments: { a: id, b: 1 } };
    if (era === 'modern') params._meta = META;
    const text = await (
      await post(node.url, { jsonrpc: '2.0', id, method: 'tools/call', params }, headers)
    ).text();
    if (!text.includes(`"${id + 1}"`)) throw new Error(`wrong answer: ${text}`);
  };
  for (let i = 0; i < 300; i++) await one(i);
  let roundTrips: number | undefined;
  if (redis) {
    // What the node sends Redis, seen by MONITOR: one line per command it issued, plus lines
    // tagged "lua" for what its scripts ran inside Redis (not round trips).
    const monitor = spawn('redis-cli', ['-p', String(redis.port), 'MONITOR'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let seen = '';
    monitor.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 200; i++) await one(i);
    await new Promise((r) => setTimeout(r, 200));
    monitor.kill();
    const lines = seen.split('\n').filter((l) => /^\d+\.\d+ \[/.test(l));
    roundTrips = lines.filter((l) => !l.includes(' lua] ')).length / 200;
  }
  const cpuBefore = cpuNanos(node.pid);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await one(i);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  const cpu = (cpuNanos(node.pid) - cpuBefore) / 1000 / CALLS;
  return {
    medianUs: median(times),
    p99Us: quantile(times, 0.99),
    cpuUsPerCall: cpu,
    redisRoundTrips: roundTrips,
  };
}

function usedMemory(redis: { cli: (...args: string[]) => string }): number {
  return Number(/used_memory:(\d+)/.exec(redis.cli('INFO', 'memory'))![1]);
}

/** A listen stream on `listener`; `touch` called on `raiser`: time until the update arrives. */
async function fanOut(
  raiser: string,
  listener: string,
): Promise<{ medianUs: number; p99Us: number }> {
  const controller = new AbortController();
  const res = await fetch(listener, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      ...JSON_AND_SSE,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: ['bench://status'] }, _meta: META },
    }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending: (() => void) | undefined;
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      while (buffer.includes('notifications/resources/updated')) {
        buffer = buffer.slice(buffer.indexOf('notifications/resources/updated') + 10);
        pending?.();
      }
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  const headers = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'touch',
  };
  const times: number[] = [];
  for (let i = 0; i < FANOUT; i++) {
    const arrived = new Promise<void>((done) => {
      pending = done;
    });
    const start = process.hrtime.bigint();
    void post(
      raiser,
      {
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'touch', arguments: {}, _meta: META },
      },
      headers,
    ).then((r) => r.text());
    await arrived;
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  controller.abort();
  return { medianUs: median(times), p99Us: quantile(times, 0.99) };
}

const redis = await startRedis();
const redisUrl = `redis://127.0.0.1:${redis.port}`;
const memoryNode = await startNode();
const redisNode = await startNode(redisUrl);
const other = await startNode(redisUrl);

const rows: [string, CallFigures][] = [];
rows.push(['legacy session call, in memory', await calls(memoryNode, 'legacy')]);
rows.push(['legacy session call, Redis', await calls(redisNode, 'legacy', redis)]);
rows.push(['2026-07-28 call, in memory', await calls(memoryNode, 'modern')]);
rows.push(['2026-07-28 call, Redis', await calls(redisNode, 'modern', redis)]);
const fan = await fanOut(redisNode.url, other.url);
const local = await fanOut(redisNode.url, redisNode.url);

const before = usedMemory(redis);
for (let i = 0; i < SESSIONS; i++) await openSession(other.url);
const perSession = (usedMemory(redis) - before) / SESSIONS;
const someKey = redis.cli('--scan', '--pattern', 'mcp:session:*').split('\n')[0];
const keyUsage = Number(redis.cli('MEMORY', 'USAGE', someKey));

const store = await redisStore({ url: redisUrl, prefix: 'bench-events:' });
const frame = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri: 'bench://status' },
});
const beforeEvents = usedMemory(redis);
for (let i = 0; i < EVENTS; i++) store.events.append(`s${i % 100}_get`, frame, `s${i % 100}`);
await (store.events as RedisEventStore).written();
const perEvent = (usedMemory(redis) - beforeEvents) / EVENTS;
await store.close();

const f = (n: number | undefined, digits = 0) => (n === undefined ? '—' : n.toFixed(digits));
console.log(
  `\n@mcp-fw/redis cluster benchmark (${CALLS} sequential calls each, one client, Node ${process.version})\n`,
);
console.log(
  '| call | median latency | p99 latency | server CPU per call | Redis round trips per call |',
);
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of rows)
  console.log(
    `| ${name} | ${f(r.medianUs)} µs | ${f(r.p99Us)} µs | ${f(r.cpuUsPerCall)} µs | ${f(r.redisRoundTrips, 2)} |`,
  );
console.log(
  `\nFan-out (resource update raised by a call on one node, heard on a listen stream): on another node median ${f(fan.medianUs)} µs, p99 ${f(fan.p99Us)} µs; on the same node median ${f(local.medianUs)} µs, p99 ${f(local.p99Us)} µs (${FANOUT} updates; includes the raising call)`,
);
console.log(
  `Redis memory per idle legacy session: ${f(perSession)} bytes (INFO used_memory over ${SESSIONS} sessions; MEMORY USAGE of one record key: ${keyUsage} bytes)`,
);
console.log(
  `Redis memory per event kept (a ${frame.length}-byte notification, 100 streams): ${f(perEvent)} bytes (over ${EVENTS} events)`,
);
process.exit(0);
