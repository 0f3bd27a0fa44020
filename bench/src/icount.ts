// Instructions per tools/call `add`, counted by callgrind (Debian's valgrind; not installed by
// .ci/run): steady where timings on a shared machine move by more than the change being tried.
// Two runs of N1 and N2 calls, so start-up cancels out: (Ir(N2) − Ir(N1)) / (N2 − N1). Seeds are
// fixed so hashing repeats.
//   node bench/dist/icount.js in-process|stdio|http legacy|modern [N1=20000] [N2=220000]
// `in-process` counts era-cost.js (engine, protocol and tools, no I/O); `stdio` runs the stdio
// benchmark server under callgrind and drives it over pipes in batches of 64 calls; `http` runs
// the Streamable HTTP benchmark server (serveHttp's defaults) under callgrind and drives it with
// one keep-alive connection, a legacy session or stateless 2026-07-28 calls, one at a time. With
// BENCH_ERAS_ENVELOPE=official, each era's call is what the official client sends (http-client.ts).
// ICOUNT_TREE=<checkout> counts that checkout's built bench/dist (another commit, built in a
// scratch copy), driven by this harness: before/after figures of a change in one method.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClient } from './client.js';
import { LegacySession, legacyMeta, modernAdd, openConnection } from './http-client.js';
import { callAdd, callModernAdd, connect } from './measure.js';

const [where = '', era = '', n1Arg = '20000', n2Arg = '220000'] = process.argv.slice(2);
if (!['in-process', 'stdio', 'http'].includes(where) || !['legacy', 'modern'].includes(era)) {
  throw new Error('usage: icount.js in-process|stdio|http legacy|modern [N1] [N2]');
}
const tree = process.env.ICOUNT_TREE;
const script = (name: string) =>
  tree ? resolve(tree, 'bench/dist', name) : fileURLToPath(new URL(name, import.meta.url));
const CALLGRIND = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null'];
const NODE_ARGS = ['--single-threaded', '--hash-seed=42', '--random-seed=42'];
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

/** The HTTP benchmark server under callgrind, `n` checked calls one at a time: its total instructions. */
async function overHttp(n: number): Promise<number> {
  const child = spawn(CALLGRIND[0]!, [
    ...CALLGRIND.slice(1),
    process.execPath,
    ...NODE_ARGS,
    script('./http-mcp-fw-server.js'),
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
  if (era === 'legacy') {
    const { session } = await LegacySession.open(connection);
    for (let i = 0; i < n; i++) await session.add();
    await session.close();
  } else {
    for (let i = 0; i < n; i++) await modernAdd(connection);
  }
  connection.close();
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
  await exited;
  clearTimeout(timer);
  return collected(stderr);
}

const count = where === 'in-process' ? inProcess : where === 'stdio' ? overStdio : overHttp;
const [n1, n2] = [Number(n1Arg), Number(n2Arg)];
const [a, b] = [await count(n1), await count(n2)];
process.stdout.write(
  `${where} ${era}: ${Math.round((b - a) / (n2 - n1))} instructions per call (${n1} and ${n2} calls)\n`,
);
