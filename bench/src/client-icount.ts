// Instructions per call of one client of `npm run bench:client`, counted by callgrind (Debian's
// valgrind): steady where CPU times on a shared machine move by more than the change being
// tried. The driver (client-driver.ts) runs twice under callgrind, with N1 and N2 measured calls
// (each after its fifth as warm-up), so that start-up cancels out:
// (Ir(N2) − Ir(N1)) / (1.2 × (N2 − N1)). Only the client process is counted (callgrind does not
// follow the server it spawns); V8 runs single-threaded (its garbage collector's work counted on
// the main thread) with fixed seeds, so hashing repeats. The two runs go in parallel.
//   node bench/dist/client-icount.js <bare|mcp-fw|sdk-v2> [inFlight=1] [N1=2000] [N2=7000]
// stdio only: the HTTP clients' counts are mostly node:http's and undici's.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [client = '', inFlight = '1', n1Arg = '2000', n2Arg = '7000'] = process.argv.slice(2);
if (!['bare', 'mcp-fw', 'sdk-v2'].includes(client))
  throw new Error('usage: client-icount.js <bare|mcp-fw|sdk-v2> [inFlight] [N1] [N2]');
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const [n1, n2] = [Number(n1Arg), Number(n2Arg)];

function instructions(calls: number): Promise<number> {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      '--hash-seed=42',
      '--random-seed=42',
      here('./client-driver.js'),
      client,
      'stdio',
      here('./bare-server.js'),
      String(calls),
      inFlight,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => {
      const found = /Collected : (\d+)/.exec(stderr);
      if (found) resolve(Number(found[1]));
      else reject(new Error(`no callgrind total:\n${stderr.slice(-2000)}`));
    });
  });
}

const [a, b] = await Promise.all([instructions(n1), instructions(n2)]);
// Each driver also makes a fifth of its calls as warm-up (at least 200).
const calls = (n: number) => n + Math.max(200, Math.round(n / 5));
const perCall = (b - a) / (calls(n2) - calls(n1));
process.stdout.write(
  `${JSON.stringify({ client, transport: 'stdio', inFlight: Number(inFlight), n1, n2, irN1: a, irN2: b, irPerCall: Math.round(perCall) })}\n`,
);
