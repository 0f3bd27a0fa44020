// What the guardrails cost per tools/call, in process: engine + protocol + guards through a
// channel stub, no I/O. Usage: `node bench/dist/guard-cost.js [default|off|all] [calls]`.
// To compare with code before the guardrails, build an older checkout and pass its core's
// dist directory as GUARD_COST_CORE.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type * as Core from '@mcp-fw/core';
import { driveInProcess } from './in-process.js';

const mode = process.argv[2] ?? 'default';
const calls = Number(process.argv[3] ?? 200_000);
const IN_FLIGHT = 64;
const core: typeof Core = process.env.GUARD_COST_CORE
  ? await import(pathToFileURL(`${process.env.GUARD_COST_CORE}/index.js`).href)
  : await import('@mcp-fw/core');

const SETTINGS: Record<string, Partial<Core.ServerOptions>> = {
  default: {},
  off: { limits: { maxResultBytes: 0, controlChars: 'keep' } },
  all: {
    limits: {
      rateLimit: { max: 1e9, perMs: 60_000 },
      timeoutMs: 60_000,
      concurrency: { perSession: 1_000, perServer: 10_000 },
    },
    audit: { sink: () => {} },
  },
};
if (!SETTINGS[mode]) throw new Error(`mode must be one of ${Object.keys(SETTINGS).join(', ')}`);

// Decorated by hand so the same file runs against an older core (no decorator transform needed).
class Tools {
  add(args: { a: number; b: number }) {
    return String(args.a + args.b);
  }
}
const input = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};
core.Tool({ description: 'Adds', input })(
  Tools.prototype,
  'add',
  Object.getOwnPropertyDescriptor(Tools.prototype, 'add')!,
);
const server = core.createServer({
  name: 'cost',
  version: '1',
  providers: [Tools],
  ...SETTINGS[mode],
});

const driver = driveInProcess(server);
const call = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":${id}}}}`;
await driver.initialize('2025-06-18');
await driver.run(20_000, call, IN_FLIGHT);
const started = performance.now();
await driver.run(calls, call, IN_FLIGHT);
process.stdout.write(
  `${mode}: ${(((performance.now() - started) * 1000) / calls).toFixed(2)} µs per call\n`,
);
