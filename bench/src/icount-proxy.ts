// Instructions per call of `npm run bench:proxy`'s three subjects, counted by callgrind (Debian's
// valgrind): steady where timings on a shared machine move by more than the change being tried.
// Each subject (the bench's mcp-fw server called directly, the proxy in front of it, the bare
// forwarder in front of it) runs under callgrind alone: callgrind does not follow children, so a
// proxy's upstream runs natively and only the proxy's own instructions are counted. `warm` checked
// `add` calls in batches of 64, the counters zeroed (callgrind_control), `measured` calls, a dump.
//   node bench/dist/icount-proxy.js [warm=3000] [measured=10000] [subjects=local,proxy,bare]
// ICOUNT_TREE=<checkout> counts that checkout's built bench/dist (another commit, built in a
// scratch copy), driven by this harness: before/after figures of a change in one method.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClient } from './client.js';
import { callAdd, PROTOCOL_VERSION } from './measure.js';

const [warmArg = '3000', measuredArg = '10000', subjectsArg = 'local,proxy,bare'] =
  process.argv.slice(2);
const tree = process.env.ICOUNT_TREE;
const script = (name: string) =>
  tree ? resolve(tree, 'bench/dist', name) : fileURLToPath(new URL(name, import.meta.url));
const NODE_ARGS = ['--single-threaded', '--hash-seed=42', '--random-seed=42'];
const BATCH = 64;
const EXIT_GRACE_MS = 300_000;
const SUBJECTS: Record<string, string> = {
  local: './mcp-fw-server.js',
  proxy: './proxy-server.js',
  bare: './bare-proxy.js',
};

function control(command: '-z' | '-d', pid: number): void {
  const result = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0 || !/OK/.test(result.stdout))
    throw new Error(
      `callgrind_control ${command} ${pid} failed:\n${result.stdout}${result.stderr}`,
    );
}

async function count(subject: string, warm: number, measured: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'icount-proxy-'));
  try {
    const client = new StdioClient(script(SUBJECTS[subject]!), {
      nodeArgs: NODE_ARGS,
      wrapper: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${dir}/callgrind.out`],
    });
    // No timeout: under callgrind a proxy takes a minute to start and reach its upstream.
    await client.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcp-fw-bench', version: '1.0.0' },
    });
    client.notify('notifications/initialized');
    const calls = async (n: number) => {
      for (let sent = 0; sent < n; sent += BATCH)
        // Issued in one tick, so they leave as one write.
        await Promise.all(Array.from({ length: Math.min(BATCH, n - sent) }, () => callAdd(client)));
    };
    await calls(warm);
    control('-z', client.pid);
    await calls(measured);
    control('-d', client.pid);
    const dump = readdirSync(dir).find((name) => /^callgrind\.out\.\d+$/.test(name));
    if (!dump) throw new Error(`callgrind wrote no dump in ${dir}`);
    const summary = /^summary: (\d+)$/m.exec(readFileSync(join(dir, dump), 'utf8'));
    if (!summary) throw new Error(`no summary line in ${join(dir, dump)}`);
    await client.close(EXIT_GRACE_MS);
    return Number(summary[1]) / measured;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [warm, measured] = [Number(warmArg), Number(measuredArg)];
const counts: Record<string, number> = {};
for (const subject of subjectsArg.split(',')) {
  counts[subject] = await count(subject, warm, measured);
  process.stdout.write(
    `${subject}: ${Math.round(counts[subject]!)} instructions per call (${measured} calls after ${warm} warm-up calls)\n`,
  );
}
if (counts.local && counts.proxy)
  process.stdout.write(`proxy / local: ${(counts.proxy / counts.local).toFixed(2)}×\n`);
if (counts.local && counts.bare)
  process.stdout.write(`bare / local: ${(counts.bare / counts.local).toFixed(2)}×\n`);
