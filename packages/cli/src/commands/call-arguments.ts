import type { JsonSchema } from '../client/wire.js';
import { CliError } from '../output/cli-error.js';

/**
 * Builds a tool's arguments from `key=value` pairs (each value read as the type the tool's
 * input schema gives the key) on top of an optional `--json` object.
 */
export function callArguments(
  pairs: readonly string[],
  json: string | undefined,
  inputSchema: JsonSchema,
): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(
        `--json is not valid JSON: ${(error as Error).message}.`,
        `Quote the object for your shell, e.g. --json '{"a": 1}'.`,
      );
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new CliError(
        '--json must be a JSON object.',
        `Pass the arguments by name, e.g. --json '{"a": 1}'.`,
      );
    }
  }
  const properties = inputSchema.properties ?? {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new CliError(
        `"${pair}" is not a key=value argument.`,
        'Write each argument as name=value, e.g. a=1 text="hello world".',
      );
    const key = pair.slice(0, at);
    args[key] = coerce(key, pair.slice(at + 1), properties[key]);
  }
  return args;
}

function coerce(key: string, raw: string, schema: JsonSchema | undefined): unknown {
  const types = new Set<string>([schema?.type ?? []].flat());
  if (
    types.has('string') ||
    (types.size === 0 && schema?.enum?.every((v: unknown) => typeof v === 'string'))
  )
    return raw;
  if (types.has('number') || types.has('integer')) {
    const n = Number(raw);
    if (raw.trim() === '' || Number.isNaN(n))
      throw new CliError(
        `${key} must be a number, not "${raw}".`,
        `Pass a number, e.g. ${key}=42.`,
      );
    return n;
  }
  if (types.has('boolean')) {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new CliError(
      `${key} must be true or false, not "${raw}".`,
      `Pass ${key}=true or ${key}=false.`,
    );
  }
  // Objects, arrays and untyped values are read as JSON when they parse, else kept as text.
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
