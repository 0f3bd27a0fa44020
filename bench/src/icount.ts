// Instructions per tools/call `add`, counted by callgrind (Debian's valgrind; not installed by
// .ci/run): steady where timings on a shared machine move by more than the change being tried.
// Two runs of N1 and N2 calls, so start-up cancels out: (Ir(N2) − Ir(N1)) / (N2 − N1). Seeds are
// fixed so hashing repeats.
//   node bench/dist/icount.js in-process|stdio|http legacy|modern [N1=20000] [N2=220000]
//   node bench/dist/icount.js http-window legacy|modern [warm] [measured]
// `in-process` counts era-cost.js (engine, protocol and tools, no I/O); `stdio` runs the stdio
// benchmark server under callgrind and drives it over pipes in batches of 64 calls; `http` runs
// the Streamable HTTP benchmark server (serveHttp's defaults) under callgrind and drives it with
// one keep-alive connection, a legacy session or stateless 2026-07-28 calls, one at a time. With
// BENCH_ERAS_ENVELOPE=official, each era's call is what the official client sends (http-client.ts).
// `http-window` starts the HTTP server once, makes `warm` calls, zeroes callgrind's counters, and
// counts `measured` calls alone (callgrind_control): a tenth of the time of two full runs.
// ICOUNT_KEEP=1 keeps that window's callgrind dump (for callgrind_annotate: which of node's and
// V8's own functions the instructions went to; JIT-compiled JavaScript shows as addresses).
// ICOUNT_HTTP_SERVER=bare counts the bare node:http floor (http-bare-server.ts) in `http` mode
// instead, driven alike: the denominator of the HTTP ratio, in the same method.
// ICOUNT_TREE=<checkout> counts that checkout's built bench/dist (another commit, built in a
// scratch copy), driven by this harness: before/after figures of a change in one method.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClient } from './client.js';
import { LegacySession, legacyMeta, modernAdd, openConnection } from './http-client.js';
import { callAdd, callModernAdd, connect } from './measure.js';

const [where = '', era = '', n1Arg = '20000', n2Arg = '220000'] = process.argv.slice(2);
if (
  !['in-process', 'stdio', 'http', 'http-window'].includes(where) ||
  !['legacy', 'modern'].includes(era)
) {
  throw new Error(
    'usage: icount.js in-process|stdio|http legacy|modern [N1] [N2], or http-window legacy|modern [warm] [measured]',
  );
}
const tree = process.env.ICOUNT_TREE;
const script = (name: string) =>
  tree ? resolve(tree, 'bench/dist', name) : fileURLToPath(new URL(name, import.meta.url));
const CALLGRIND = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null'];
// ICOUNT_NODE_ARGS adds node flags, e.g. `--perf-basic-prof`: /tmp/perf-<pid>.map then names the
// JIT-compiled code that a kept dump shows only as addresses (bench/README, "instructions per JS function").
const NODE_ARGS = [
  '--single-threaded',
  '--hash-seed=42',
  '--random-seed=42',
  ...(process.env.ICOUNT_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];
const BATCH = 64;
/** Slow under callgrind: starting, and writing its totals at exit, take seconds. */
const EXIT_GRACE_MS = 300_000;

function collected(stderr: string): number {
  const found = /Collected : (\d+)/.exec(stderr);
  if (!found) throw new Error(`no callgrind total:\n${stderr.slice(-2000)}`);
  return Number(found[1]);
}

/** era-cost.js under callgrind: its total instructions. */
function inProcess(n: number): Promise<number> {
  const child = spawn(CALLGRIND[0]!, [
    ...CALLGRIND.slice(1),
    process.execPath,
    ...NODE_ARGS,
    script('./era-cost.js'),
    era,
    String(n),
    '1',
  ]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve(collected(stderr));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The stdio benchmark server under callgrind, `n` checked calls in batches: its total instructions. */
async function overStdio(n: number): Promise<number> {
  const options = { nodeArgs: NODE_ARGS, wrapper: CALLGRIND };
  const client =
    era === 'legacy'
      ? (await connect(script('./mcp-fw-server.js'), options)).client
      : new StdioClient(script('./mcp-fw-server.js'), options);
  const call =
    era === 'legacy'
      ? async () => void (await callAdd(client, legacyMeta))
      : () => callModernAdd(client);
  for (let sent = 0; sent < n; sent += BATCH) {
    // Issued in one tick, so they leave as one write.
    await Promise.all(Array.from({ length: Math.min(BATCH, n - sent) }, call));
  }
  await client.close(EXIT_GRACE_MS);
  return collected(client.stderr);
}

const httpServer =
  process.env.ICOUNT_HTTP_SERVER === 'bare' ? './http-bare-server.js' : './http-mcp-fw-server.js';

/**
 * The HTTP benchmark server under callgrind, driven over one keep-alive connection: `drive` gets
 * a function making one checked call and the server's pid, and returns the count it reports.
 */
async function withHttpServer(
  outFile: string,
  drive: (call: () => Promise<void>, pid: number) => Promise<number | undefined>,
): Promise<number> {
  const child = spawn(CALLGRIND[0]!, [
    CALLGRIND[1]!,
    `--callgrind-out-file=${outFile}`,
    process.execPath,
    ...NODE_ARGS,
    script(httpServer),
  ]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((found, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /^listening (\S+)$/m.exec(out);
      if (match) found(match[1]!);
    });
    void exited.then(() =>
      reject(new Error(`the HTTP server exited first:\n${stderr.slice(-2000)}`)),
    );
  });
  const connection = openConnection(url);
  let counted: number | undefined;
  if (era === 'legacy') {
    const { session } = await LegacySession.open(connection);
    counted = await drive(async () => void (await session.add()), child.pid!);
    await session.close();
  } else {
    counted = await drive(async () => void (await modernAdd(connection)), child.pid!);
  }
  connection.close();
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
  await exited;
  clearTimeout(timer);
  return counted ?? collected(stderr);
}

/** `n` calls one at a time: the server's total instructions, start-up and exit included. */
function overHttp(n: number): Promise<number> {
  return withHttpServer('/dev/null', async (call) => {
    for (let i = 0; i < n; i++) await call();
    return undefined;
  });
}

/**
 * `warm` calls, then the counters zeroed (`callgrind_control -z`, through valgrind's gdbserver,
 * which reaches a server idle in epoll_wait), `measured` calls, and a dump: the instructions of
 * the measured calls alone. One server start instead of two, and the JIT's tiering done in the
 * warm-up, so a few thousand calls give a steady figure.
 */
async function overHttpWindow(warm: number, measured: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'icount-'));
  const outFile = join(dir, 'callgrind.out');
  try {
    return await withHttpServer(outFile, async (call, pid) => {
      for (let i = 0; i < warm; i++) await call();
      control('-z', pid);
      for (let i = 0; i < measured; i++) await call();
      control('-d', pid);
      const dump = readdirSync(dir).find((name) => /^callgrind\.out\.\d+$/.test(name));
      if (!dump) throw new Error(`callgrind wrote no dump in ${dir}`);
      const summary = /^summary: (\d+)$/m.exec(readFileSync(join(dir, dump), 'utf8'));
      if (!summary) throw new Error(`no summary line in ${join(dir, dump)}`);
      return Number(summary[1]);
    });
  } finally {
    // ICOUNT_KEEP=1 leaves the dump for callgrind_annotate (its path is printed).
    if (process.env.ICOUNT_KEEP) process.stderr.write(`callgrind dump kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

function control(command: '-z' | '-d', pid: number): void {
  const result = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0 || !/OK/.test(result.stdout)) {
    throw new Error(
      `callgrind_control ${command} ${pid} failed:\n${result.stdout}${result.stderr}`,
    );
  }
}

const [n1, n2] = [Number(n1Arg), Number(n2Arg)];
const label = `${where}${where.startsWith('http') && process.env.ICOUNT_HTTP_SERVER === 'bare' ? ' (bare floor)' : ''} ${era}`;
if (where === 'http-window') {
  const total = await overHttpWindow(n1, n2);
  process.stdout.write(
    `${label}: ${Math.round(total / n2)} instructions per call (${n2} calls after ${n1} warm-up calls)\n`,
  );
} else {
  const count = where === 'in-process' ? inProcess : where === 'stdio' ? overStdio : overHttp;
  const [a, b] = [await count(n1), await count(n2)];
  process.stdout.write(
    `${label}: ${Math.round((b - a) / (n2 - n1))} instructions per call (${n1} and ${n2} calls)\n`,
  );
}
