// One client subject of `npm run bench:client`, in its own process so that only the client's CPU
// is counted: connects to the bare floor server (spawning it over stdio, or at a URL), warms
// up, then makes `calls` tools/call add with `inFlight` at a time and prints one JSON line with
// the CPU this process used over the measured calls (process.cpuUsage: getrusage of the whole
// process, every thread: the same utime + stime the house method reads from /proc).
//
//   node bench/dist/client-driver.js <bare|mcp-fw|sdk-v2> <stdio|http> <server script|url> <calls> <inFlight>
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { connect } from '@mcp-fw/client';
import {
  Client as SdkClient,
  StreamableHTTPClientTransport as SdkHttp,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/client/stdio';

type Call = (a: number, b: number) => Promise<string>;

interface Subject {
  call: Call;
  close(): Promise<void>;
}

const [which, transport, target, callsArg, inFlightArg] = process.argv.slice(2);
const calls = Number(callsArg);
const inFlight = Number(inFlightArg);
const INFO = { name: 'bench-client', version: '1.0.0' };

async function mcpFw(): Promise<Subject> {
  const client = await connect(
    transport === 'stdio' ? { command: process.execPath, args: [target] } : target,
    // The floor has no GET stream and no output schemas; probing a 2026-07-28 server/discover
    // is a round trip at connect only.
    { standaloneStream: false, timeoutMs: 30_000, onWarning: () => {} },
  );
  return {
    call: async (a, b) => (await client.callTool('add', { a, b })).content[0]?.text as string,
    close: () => client.close(),
  };
}

async function sdkV2(): Promise<Subject> {
  const client = new SdkClient(INFO, { capabilities: {} });
  await client.connect(
    transport === 'stdio'
      ? new SdkStdio({ command: process.execPath, args: [target], stderr: 'ignore' })
      : new SdkHttp(new URL(target)),
  );
  return {
    call: async (a, b) => {
      const result = await client.callTool({ name: 'add', arguments: { a, b } });
      return (result.content as { text: string }[])[0]?.text;
    },
    close: () => client.close(),
  };
}

/** The client floor: JSON lines or fetch with JSON, an id map, JSON.parse; nothing checked. */
async function bare(): Promise<Subject> {
  let id = 0;
  const pending = new Map<number, (result: { content: { text: string }[] }) => void>();
  if (transport === 'stdio') {
    const child = spawn(process.execPath, [target], { stdio: ['pipe', 'pipe', 'ignore'] });
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() as string;
      for (const line of lines) {
        const message = JSON.parse(line) as { id: number; result: never };
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      }
    });
    const send = (method: string, params: object) =>
      new Promise<{ content: { text: string }[] }>((resolve) => {
        const n = ++id;
        pending.set(n, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
      });
    await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: INFO });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return {
      call: async (a, b) =>
        (await send('tools/call', { name: 'add', arguments: { a, b } })).content[0].text,
      close: async () => {
        child.stdin.end();
      },
    };
  }
  let session = '';
  const post = async (method: string, params: object) => {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    session ||= response.headers.get('mcp-session-id') ?? '';
    return ((await response.json()) as { result: { content: { text: string }[] } }).result;
  };
  await post('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: INFO });
  return {
    call: async (a, b) =>
      (await post('tools/call', { name: 'add', arguments: { a, b } })).content[0].text,
    close: async () => {},
  };
}

async function run(subject: Subject, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const text = await subject.call(i, 1);
      if (text !== String(i + 1)) throw new Error(`add(${i}, 1) answered ${text}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

const subject = await (
  { bare, 'mcp-fw': mcpFw, 'sdk-v2': sdkV2 } as Record<string, () => Promise<Subject>>
)[which]();
await run(subject, Math.max(200, Math.round(calls / 5)));
const before = process.cpuUsage();
const started = performance.now();
await run(subject, calls);
const elapsed = performance.now() - started;
const cpu = process.cpuUsage(before);
await subject.close();
process.stdout.write(
  `${JSON.stringify({ which, transport, calls, inFlight, cpuUs: cpu.user + cpu.system, ms: elapsed })}\n`,
);
process.exit(0);
