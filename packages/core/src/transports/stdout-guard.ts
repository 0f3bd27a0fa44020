import type { FrameOutput } from './stdio.js';

let frameOutput: FrameOutput | undefined;

/**
 * Keeps stdout for protocol frames only: takes stdout's real write for the transport and sends
 * everything else written to stdout (console.log, stray process.stdout.write) to stderr.
 * Idempotent; runs when `@mcp-fw/core/stdio` is imported, before the user's code uses console.
 */
export function guardStdout(): FrameOutput {
  if (frameOutput) return frameOutput;
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: string) => boolean;
  frameOutput = { write, once: (event, listener) => stdout.once(event, listener) };
  stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(
      chunk,
      ...rest,
    )) as typeof stdout.write;
  return frameOutput;
}
