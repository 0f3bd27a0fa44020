import { InvalidArgumentError } from 'commander';

/** Parses a TCP port (0 picks a free one). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('expected a port number between 0 and 65535.');
  }
  return port;
}

/** Parses a duration in milliseconds. */
export function parseMs(value: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) throw new InvalidArgumentError('expected a number of milliseconds (0 or more).');
  return ms;
}

/** Help text listing examples, appended after a command's options. */
export function examples(lines: readonly [string, string][]): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  return `\nExamples:\n${lines.map(([command, what]) => `  $ ${command.padEnd(width)}  ${what}`).join('\n')}\n`;
}
