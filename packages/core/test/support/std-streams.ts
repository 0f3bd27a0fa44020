import { format } from 'node:util';

/** One write to stdout or stderr, in the order they happened. */
export interface Written {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/**
 * Records in-process writes to stdout and stderr until `stop()`: `process.stdout`/`stderr`
 * writes and the console methods that go to each stream, formatted as Node's console does
 * (newline included). vitest takes the console over in its workers, so a patched
 * `process.stderr.write` alone would miss `console.error`.
 */
export function recordStdStreams(): { written: Written[]; stop: () => void } {
  const written: Written[] = [];
  const push = (stream: Written['stream'], text: unknown) =>
    written.push({ stream, text: String(text) }) > 0;
  const consoleTo =
    (stream: Written['stream']) =>
    (...args: unknown[]) =>
      void push(stream, `${format(...args)}\n`);
  const { log, info, debug, warn, error } = console;
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((text: unknown) => push('stdout', text)) as typeof out;
  process.stderr.write = ((text: unknown) => push('stderr', text)) as typeof err;
  Object.assign(console, {
    log: consoleTo('stdout'),
    info: consoleTo('stdout'),
    debug: consoleTo('stdout'),
    warn: consoleTo('stderr'),
    error: consoleTo('stderr'),
  });
  const stop = () => {
    process.stdout.write = out;
    process.stderr.write = err;
    Object.assign(console, { log, info, debug, warn, error });
  };
  return { written, stop };
}
