// The floor of a forwarding proxy, for `npm run bench:proxy`: JSON lines in on stdin, each
// request's id swapped for one of the proxy's own and written to the upstream (the bench's mcp-fw
// server, spawned over stdio), each answer's id swapped back and written to stdout. Every message
// is decoded and encoded once each way, writes leave once per event-loop turn, and nothing else
// is done: no validation, no middleware, no cancellation, no sessions. What any proxy that reads
// the messages it forwards pays at least.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
}

const upstream = spawn(
  process.execPath,
  [fileURLToPath(new URL('./mcp-fw-server.js', import.meta.url))],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const callers = new Map<number, Id>();
let nextId = 0;

/** Newline-delimited JSON in, one write per turn out. */
function lines(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  each: (message: Message) => Message,
): void {
  let partial = '';
  let queue: string[] = [];
  let scheduled = false;
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() as string;
    for (const line of parts) if (line !== '') queue.push(JSON.stringify(each(JSON.parse(line))));
    if (!scheduled && queue.length > 0) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        output.write(`${queue.join('\n')}\n`);
        queue = [];
      });
    }
  });
}

lines(process.stdin, upstream.stdin, (message) => {
  if (message.method === undefined || message.id === undefined) return message;
  const id = nextId++;
  callers.set(id, message.id);
  return { ...message, id };
});
lines(upstream.stdout, process.stdout, (message) => {
  if (message.method !== undefined || typeof message.id !== 'number') return message;
  const caller = callers.get(message.id);
  callers.delete(message.id);
  return { ...message, id: caller };
});
process.stdin.once('end', () => upstream.stdin.end());
upstream.once('exit', () => process.exit(0));
