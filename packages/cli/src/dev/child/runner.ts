// The dev child. Started ahead of need (a "spare"): it imports the packages the user's code
// imported last time (argv[2], a generated module), then waits for the supervisor's `load`
// message, loads the compiled entry and serves it over the mux pipe on stdin/stdout. A reload
// then costs only the user's own modules, not Node's start and the packages.
import { pathToFileURL } from 'node:url';
import { loadServer } from '../../project/load-server.js';
import { encode, type FromChild, type ToChild } from '../mux.js';
import { serveMux } from './mux-server.js';

// Only mux lines reach stdout: whatever the user's code prints goes to stderr.
const write = process.stdout.write.bind(process.stdout) as (chunk: string) => boolean;
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
  (process.stderr.write as (...args: unknown[]) => boolean)(
    chunk,
    ...rest,
  )) as typeof process.stdout.write;
const send = (message: FromChild) => void write(encode(message));

// The supervisor owns the lifecycle (a terminal's Ctrl-C reaches the whole process group).
process.on('SIGINT', () => {});

const preload = process.argv[2];
if (preload) {
  // A package that fails here fails again, with the user's stack, when the entry imports it.
  await import(pathToFileURL(preload).href).catch(() => undefined);
}

const load = await new Promise<Extract<ToChild, { t: 'load' }>>((resolve) => {
  let text = '';
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const newline = text.indexOf('\n');
    if (newline === -1) return;
    process.stdin.off('data', onData);
    process.stdin.pause();
    // Whatever followed the load line belongs to the mux: hand it back to the stream.
    const rest = text.slice(newline + 1);
    if (rest) process.stdin.unshift(Buffer.from(rest, 'utf8'));
    resolve(JSON.parse(text.slice(0, newline)));
  };
  process.stdin.on('data', onData);
  // A spare whose supervisor went away is never loaded.
  process.stdin.once('end', () => process.exit(0));
});

try {
  const server = await loadServer(load.entry, load.shownAs, load.userDir);
  send({ t: 'ready' });
  process.stdin.removeAllListeners('end');
  serveMux(server, process.stdin, send);
  process.stdin.resume();
} catch (error) {
  send({ t: 'failed', error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
