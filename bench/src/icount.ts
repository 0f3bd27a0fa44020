// Instructions per tools/call `add`, counted by callgrind (Debian's valgrind; not installed by
// .ci/run): quiet where timings on a shared 2-vCPU VM move by ±5 %. Two runs of N1 and N2 calls,
// so start-up cancels out: (Ir(N2) − Ir(N1)) / (N2 − N1). Seeds are fixed so hashing repeats.
//   node bench/dist/icount.js in-process|stdio legacy|modern [N1=20000] [N2=220000]
// `in-process` counts era-cost.js (engine, protocol and tools, no I/O); `stdio` runs the stdio
// benchmark server under callgrind and drives it over pipes in batches of 64 calls. With
// BENCH_ERAS_ENVELOPE=official, each era's call is what the official client sends (http-client.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { envelope, legacyMeta } from './http-client.js';

const [where = '', era = '', n1Arg = '20000', n2Arg = '220000'] = process.argv.slice(2);
if (!['in-process', 'stdio'].includes(where) || !['legacy', 'modern'].includes(era)) {
  throw new Error('usage: icount.js in-process|stdio legacy|modern [N1] [N2]');
}
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const NODE = ['node', '--single-threaded', '--hash-seed=42', '--random-seed=42'];
const BATCH = 64;

function frame(id: number): string {
  const params = era === 'modern'
    ? { name: 'add', arguments: { a: id, b: 2 }, _meta: envelope(id) }
    : { name: 'add', arguments: { a: id, b: 2 }, ...legacyMeta(id) };
  return `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`;
}

/** Runs `args` under callgrind, feeding it through `drive` when given; its total instructions. */
function instructions(args: string[], drive?: (stdin: NodeJS.WritableStream, stdout: NodeJS.ReadableStream) => Promise<void>): Promise<number> {
  const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => {
      const found = /Collected : (\d+)/.exec(stderr);
      if (found) resolve(Number(found[1]));
      else reject(new Error(`no callgrind total:\n${stderr.slice(-2000)}`));
    });
  });
  if (drive) void drive(child.stdin, child.stdout).then(() => child.stdin.end(), (error: unknown) => { child.kill(); throw error; });
  else child.stdin.end();
  return exited;
}

/** `n` calls over stdio in batches, each answer checked; initialize first for the legacy era. */
function driveStdio(n: number) {
  return async (stdin: NodeJS.WritableStream, stdout: NodeJS.ReadableStream): Promise<void> => {
    let buffered = '';
    const waiting: ((line: string) => void)[] = [];
    stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      let at: number;
      while ((at = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        waiting.shift()?.(line);
      }
    });
    const next = () => new Promise<string>((resolve) => waiting.push(resolve));
    if (era === 'legacy') {
      const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'icount', version: '1' } };
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params })}\n`);
      await next();
      stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    }
    for (let sent = 0; sent < n; ) {
      const size = Math.min(BATCH, n - sent);
      const answers = Array.from({ length: size }, next);
      let chunk = '';
      for (let i = 0; i < size; i++) chunk += frame(++sent);
      stdin.write(chunk);
      for (const [i, answer] of (await Promise.all(answers)).entries()) {
        const a = sent - size + i + 1;
        const text = (JSON.parse(answer) as { result?: { content?: { text?: string }[] } }).result?.content?.[0]?.text;
        if (text !== String(a + 2)) throw new Error(`add(${a}, 2) answered ${answer}`);
      }
    }
  };
}

function count(n: number): Promise<number> {
  return where === 'in-process'
    ? instructions([...NODE, script('./era-cost.js'), era, String(n), '1'])
    : instructions([...NODE, script('./mcp-fw-server.js')], driveStdio(n));
}

const [n1, n2] = [Number(n1Arg), Number(n2Arg)];
const [a, b] = [await count(n1), await count(n2)];
process.stdout.write(`${where} ${era}: ${Math.round((b - a) / (n2 - n1))} instructions per call (${n1} and ${n2} calls)\n`);
