import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../output/cli-error.js';

/** Reads a JSON configuration file ({} when it does not exist yet). */
export function readConfigFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const comments = /^\s*\/\/|\/\*/m.test(text)
      ? ' (it has comments, which mcp-fw cannot keep)'
      : '';
    throw new CliError(
      `${path} is not plain JSON${comments}: ${(error as Error).message}.`,
      'Fix the file, or run the command again with --print and add the entry by hand.',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(
      `${path} does not hold a JSON object.`,
      'Fix the file, or use --print and add the entry by hand.',
    );
  }
  return value as Record<string, unknown>;
}

/** Writes the file whole or not at all (a temporary file renamed over it). */
export function writeConfigFile(path: string, value: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.mcp-fw-${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, path);
}
