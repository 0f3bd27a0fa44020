// What one tools/call costs in process, per era: engine + protocol + the benchmark server's
// tools through a channel stub, no I/O, so the framework's own microseconds (frames parsed and
// answers serialised included). Usage: `node bench/dist/era-cost.js [legacy|modern] [calls] [runs]`,
// with `BENCH_ERAS_ENVELOPE=official` for the official client's envelope.
// The stdio eras benchmark (run-eras) measures the same with real pipes; this one gives a
// quick, quieter figure while working on the modern path.
import { performance } from 'node:perf_hooks';
import { driveInProcess } from './in-process.js';
import { envelope, legacyMeta } from './http-client.js';
import { benchServer } from './mcp-fw-tools.js';

const era = process.argv[2] ?? 'legacy';
const calls = Number(process.argv[3] ?? 200_000);
const runs = Number(process.argv[4] ?? 5);
const IN_FLIGHT = 64;
if (era !== 'legacy' && era !== 'modern') throw new Error('era must be legacy or modern');

// Frames are built from text in both eras, since this loop's own time is counted: each era's
// `_meta` (BENCH_ERAS_ENVELOPE picks them, as for run-eras) is serialised once, around the
// request id its progress token takes.
function withId(meta: unknown): (id: number) => string {
  const [before, after] = JSON.stringify(meta).split('-1');
  return after === undefined ? () => before! : (id) => `${before}${id}${after}`;
}
const modernMeta = withId(envelope(-1));
const legacy = legacyMeta(-1)._meta;
const legacyMetaText = legacy ? withId(legacy) : undefined;
const call =
  era === 'modern'
    ? (id: number) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${id},"b":2},"_meta":${modernMeta(id)}}}`
    : (id: number) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${id},"b":2}${legacyMetaText ? `,"_meta":${legacyMetaText(id)}` : ''}}}`;

const driver = driveInProcess(benchServer());
if (era === 'legacy') await driver.initialize('2025-11-25');
await driver.run(20_000, call, IN_FLIGHT);
const reply = JSON.parse(driver.lastAnswer) as {
  result?: { content?: { text?: string }[]; resultType?: string };
};
if (
  reply.result?.content?.[0]?.text !== String(20_000 + 2) ||
  (era === 'modern' && reply.result.resultType !== 'complete')
) {
  throw new Error(`wrong answer: ${driver.lastAnswer}`);
}
const perCall: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  await driver.run(calls, call, IN_FLIGHT);
  perCall.push(((performance.now() - started) * 1000) / calls);
}
perCall.sort((a, b) => a - b);
process.stdout.write(
  `${era}: best ${perCall[0]!.toFixed(2)} µs, median ${perCall[Math.floor(runs / 2)]!.toFixed(2)} µs per call\n`,
);
