// Instructions from exec to the initialize answer, counted by callgrind (Debian's valgrind): the
// load-independent measure of issue 40's target 1, where `npm run bench:cold` times the same
// thing on a shared machine. Each subject starts twice under callgrind: the first start is let
// run to its exit (a bundled server writes its code cache then; V8 rejects one written outside
// valgrind), the second is stopped by SIGUSR2 (default action: terminate, which callgrind
// reports) 300 ms after its answer arrived, an idle wait in epoll that costs no instructions.
// Seeds are fixed so hashing repeats; --single-threaded keeps V8's work on one thread.
//   node bench/dist/cold-icount.js          (after npm run bench:cold or tsc -b)
// BENCH_COLD_EXTRA=name=script,… counts more subjects, as it times them in run-cold.ts.
// NODE_EXTRA_CA_CERTS is unset for the subjects, as in run-cold.ts (BENCH_KEEP_EXTRA_CA_CERTS=1
// keeps it).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundledServers } from './bundled-servers.js';
import { extraSubjects, subjectEnv } from './cold-subjects.js';
import { serverRuntime } from './config.js';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
})}\n`;

function count(script: string, stopAtAnswer: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        serverRuntime,
        '--single-threaded',
        '--hash-seed=42',
        '--random-seed=42',
        script,
      ],
      { env: subjectEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once('data', () => {
      if (stopAtAnswer) setTimeout(() => child.kill('SIGUSR2'), 300);
      else child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', () => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (collected) resolve(Number(collected[1]));
      else reject(new Error(`${script}: no callgrind total\n${stderr}`));
    });
    child.stdin.write(INITIALIZE);
  });
}

async function main(): Promise<void> {
  const floor = fileURLToPath(new URL('./bare-server.js', import.meta.url));
  const launchers = await bundledServers(['mcp-fw'] as const);
  const subjects: [string, string][] = [
    ['bare floor', floor],
    ['mcp-fw (bundled)', launchers['mcp-fw']],
    ...extraSubjects(),
  ];
  const counts: number[] = [];
  for (const [name, script] of subjects) {
    await count(script, false);
    const n = await count(script, true);
    counts.push(n);
    const ratio = counts[0] ? ` (${(n / counts[0]).toFixed(3)}× the floor)` : '';
    console.log(`${name.padEnd(18)} ${(n / 1e6).toFixed(2)} M instructions to the answer${ratio}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
