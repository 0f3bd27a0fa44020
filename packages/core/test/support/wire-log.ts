import { readFileSync } from 'node:fs';
import { mcpSchema } from './mcp-schema.ts';

export interface TapRecord {
  dir: 'c2s' | 's2c';
  line: string;
}

export function readTap(file: string): TapRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TapRecord);
}

/**
 * Checks every line the server wrote: it parses as one JSON-RPC message and validates against
 * the official schema of `revision`, responses against the result type of the request they
 * answer. Returns the problems found, each naming the offending line.
 */
export function checkServerLines(records: readonly TapRecord[], revision: string): string[] {
  const schema = mcpSchema(revision);
  const methodById = new Map<string, string>();
  const problems: string[] = [];
  for (const { dir, line } of records) {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line);
    } catch {
      problems.push(`${dir} line is not JSON: ${line.slice(0, 200)}`);
      continue;
    }
    if (dir === 'c2s') {
      if (typeof message.method === 'string' && 'id' in message)
        methodById.set(JSON.stringify(message.id), message.method);
      continue;
    }
    const method =
      'id' in message && !('method' in message)
        ? methodById.get(JSON.stringify(message.id))
        : undefined;
    for (const p of schema.check(message, 'result' in message ? method : undefined)) {
      problems.push(`${p}\n  in: ${line.slice(0, 300)}`);
    }
  }
  return problems;
}
