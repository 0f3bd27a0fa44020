// What the garbage collector does to a call when thousands of streams are held: one server of
// the ten-thousand-streams benchmark (`bare` or `mcp-fw`) under `--trace-gc-nvp`, BENCH_STREAM_CALLS
// sequential stateless `add` calls before and again while STREAMS listen streams are held, and
// V8's own account of every scavenge in each window (how many, the pause, its parallel phase,
// what survived, how much was allocated between two). Counts and sizes do not move with the
// machine's load; pause lengths do.
//   node bench/dist/streams-gc.js <bare|mcp-fw> [streams=10000]
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envInt } from './config.js';
import { openStreams } from './held-streams.js';
import { modernAdd } from './http-client.js';
import { WireConnection } from './http-wire.js';
import { median } from './stats.js';

const SUBJECTS: Record<string, string> = {
  bare: './streams-bare-server.js',
  'mcp-fw': './streams-mcp-fw-server.js',
};
const [subject = 'mcp-fw', streamsArg = '10000'] = process.argv.slice(2);
if (!SUBJECTS[subject]) throw new Error(`usage: streams-gc <bare|mcp-fw> [streams]`);
const STREAMS = Number(streamsArg);
const CALLS = envInt('BENCH_STREAM_CALLS', 10_000);

const trace = join(tmpdir(), `mcp-fw-streams-gc-${process.pid}.log`);
const spawnedAt = Date.now();
const child = spawn(
  process.execPath,
  ['--expose-gc', '--trace-gc-nvp', new URL(SUBJECTS[subject], import.meta.url).pathname],
  { stdio: ['pipe', openSync(trace, 'w'), 'inherit'] },
);
let url: string | undefined;
while (!url) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  url = /^listening (\S+)$/m.exec(readFileSync(trace, 'utf8'))?.[1];
}
const connection = new WireConnection(url);
// Since the process started, as the trace counts (the spawn itself shifts it by a few ms).
const window = async (): Promise<[number, number]> => {
  const from = Date.now() - spawnedAt;
  for (let i = 0; i < CALLS; i++) await modernAdd(connection);
  return [from, Date.now() - spawnedAt];
};
for (let i = 0; i < 2_000; i++) await modernAdd(connection);
const before = await window();
const streams = await openStreams(url, 'listen', STREAMS);
const held = await window();
for (const stream of streams) stream.close();
connection.close();
child.stdin?.end();

type Gc = Record<string, string> & { at: number };
const gcs: Gc[] = [];
for (const line of readFileSync(trace, 'utf8').split('\n')) {
  const match = /\s([\d.]+) ms: (pause=.*)$/.exec(line);
  if (!match) continue;
  const fields = Object.fromEntries(match[2].split(' ').map((kv) => kv.split('=')));
  gcs.push({ ...fields, at: Number(match[1]) });
}
const show = (name: string, [from, to]: [number, number]) => {
  const inWindow = gcs.filter((gc) => gc.at >= from && gc.at < to);
  const scavenges = inWindow.filter((gc) => gc.gc === 's');
  const med = (key: string) => median(scavenges.map((gc) => Number(gc[key])));
  const others = inWindow.filter((gc) => gc.gc !== 's').map((gc) => `${gc.gc} ${gc.pause} ms`);
  const sum = inWindow.reduce((total, gc) => total + Number(gc.pause), 0);
  console.log(
    `${name}: ${scavenges.length} scavenges in ${CALLS} calls, all pauses ${sum.toFixed(1)} ms; ` +
      `median scavenge: pause ${med('pause').toFixed(2)} ms (parallel phase ${med('scavenge.parallel').toFixed(2)}, roots ${med('scavenge.roots').toFixed(2)}), ` +
      `survived ${(med('new_space_survived') / 1024).toFixed(0)} KB, allocated between two ${(med('allocated') / 2 ** 20).toFixed(1)} MB` +
      (others.length > 0 ? `; other collections: ${others.join(', ')}` : ''),
  );
};
console.log(`${subject}, ${STREAMS} listen streams (trace: ${trace})`);
show('no streams  ', before);
show('streams held', held);
