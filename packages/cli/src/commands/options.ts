import { InvalidArgumentError } from 'commander';
import { CliError } from '../output/cli-error.js';

/** The HTTP port when neither `--port` nor `PORT` gives one. */
export const DEFAULT_PORT = 3000;

/** The `--port` help: the default comes from the environment, as hosting platforms set it. */
export const PORT_HELP = `HTTP port (0 picks a free one; default: $PORT, else ${DEFAULT_PORT})`;

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
  if (!Number.isFinite(ms) || ms < 0)
    throw new InvalidArgumentError('expected a number of milliseconds (0 or more).');
  return ms;
}

/** Help text listing examples, appended after a command's options. */
export function examples(lines: readonly [string, string][]): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  return `\nExamples:\n${lines.map(([command, what]) => `  $ ${command.padEnd(width)}  ${what}`).join('\n')}\n`;
}

/**
 * The HTTP port to serve on: `--port`, else the `PORT` environment variable (what hosting
 * platforms and `PORT=8080 npm start` set), else 3000.
 */
export function httpPort(flag: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) return flag;
  const raw = env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65535) {
    throw new CliError(
      `PORT=${raw} is not a port number.`,
      'Set PORT to a number between 0 and 65535 (0 picks a free one), or pass --port.',
    );
  }
  return port;
}
