// Instructions per tools/call `add`, counted by callgrind (Debian's valgrind; not installed by
// .ci/run): steady where timings on a shared machine move by more than the change being tried.
// Two runs of N1 and N2 calls, so start-up cancels out: (Ir(N2) − Ir(N1)) / (N2 − N1). Seeds are
// fixed so hashing repeats.
//   node bench/dist/icount.js in-process|stdio legacy|modern [N1=20000] [N2=220000]
// `in-process` counts era-cost.js (engine, protocol and tools, no I/O); `stdio` runs the stdio
// benchmark server under callgrind and drives it over pipes in batches of 64 calls. With
// BENCH_ERAS_ENVELOPE=official, each era's call is what the official client sends (http-client.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StdioClient } from './client.js';
import { legacyMeta } from './http-client.js';
import { callAdd, callModernAdd, connect } from './measure.js';

const [where = '', era = '', n1Arg = '20000', n2Arg = '220000'] = process.argv.slice(2);
if (!['in-process', 'stdio'].includes(where) || !['legacy', 'modern'].includes(era)) {
  throw new Error('usage: icount.js in-process|stdio legacy|modern [N1] [N2]');
}
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
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

const count = where === 'in-process' ? inProcess : overStdio;
const [n1, n2] = [Number(n1Arg), Number(n2Arg)];
const [a, b] = [await count(n1), await count(n2)];
process.stdout.write(
  `${where} ${era}: ${Math.round((b - a) / (n2 - n1))} instructions per call (${n1} and ${n2} calls)\n`,
);
