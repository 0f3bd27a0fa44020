import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

type Json = Record<string, unknown>;

/** What one listed tool costs, and what in it is worth trimming. */
export interface ToolFootprint {
  readonly name: string;
  /** Tokens of the tool's JSON as listed. */
  readonly tokens: number;
  /** Tokens of its description alone. */
  readonly descriptionTokens: number;
  /** What to trim, each naming the place and its cost. */
  readonly hints: readonly string[];
}

/** The tokens a `tools/list` result costs a model's context, in total and per tool. */
export interface Footprint {
  /** Tokens of the whole `tools/list` result (`{"tools":[…]}`), exactly as sent. */
  readonly total: number;
  readonly tools: readonly ToolFootprint[];
}

/** The tokenizer the counts come from (o200k_base, that of GPT-4o, GPT-4.1 and GPT-5). */
export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

// Thresholds for the hints: past them, a part of a schema is worth a second look.
const LONG_DESCRIPTION = 150;
const BIG_ENUM = 25;

const tokensOf = (value: unknown) =>
  countTokens(typeof value === 'string' ? value : JSON.stringify(value));

function* enums(schema: unknown, path: string): Generator<[string, unknown[]]> {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) yield* enums(item, `${path}[${i}]`);
    return;
  }
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'enum' && Array.isArray(value)) yield [path, value];
    else yield* enums(value, path === '' ? key : `${path}.${key}`);
  }
}

const defsOf = (tool: Json): Record<string, unknown> => {
  const schema = tool.inputSchema as Json | undefined;
  return { ...((schema?.$defs ?? schema?.definitions ?? {}) as Json) };
};

/**
 * Counts the tokens of `tools` (a `tools/list` result's `tools`) with o200k_base and names what
 * to trim: descriptions over 150 tokens, enums of more than 25 values, and `$defs` repeated
 * verbatim across tools (each copy is paid for again).
 */
export function toolsFootprint(tools: readonly Json[]): Footprint {
  const defs = new Map<string, { tools: string[]; tokens: number }>();
  for (const tool of tools)
    for (const [name, def] of Object.entries(defsOf(tool))) {
      const key = `${name}\u0000${JSON.stringify(def)}`;
      const seen = defs.get(key) ?? { tools: [], tokens: tokensOf(def) };
      seen.tools.push(tool.name as string);
      defs.set(key, seen);
    }
  const measured = tools.map((tool): ToolFootprint => {
    const hints: string[] = [];
    const descriptionTokens = tool.description === undefined ? 0 : tokensOf(tool.description);
    if (descriptionTokens > LONG_DESCRIPTION)
      hints.push(
        `description is ${descriptionTokens} tokens: say what the tool does and when to use it; move reference material to a resource`,
      );
    for (const [path, values] of enums(tool.inputSchema, 'inputSchema'))
      if (values.length > BIG_ENUM)
        hints.push(
          `${path}: enum of ${values.length} values (${tokensOf(values)} tokens): accept a string and validate it in the handler, or offer completions`,
        );
    for (const [name, def] of Object.entries(defsOf(tool))) {
      const shared = defs.get(`${name}\u0000${JSON.stringify(def)}`);
      if (shared && shared.tools.length > 1 && shared.tools[0] === tool.name)
        hints.push(
          `$defs.${name} (${shared.tokens} tokens) is repeated in ${shared.tools.length} tools: inline a smaller shape, or split the tools so fewer need it`,
        );
    }
    return { name: tool.name as string, tokens: tokensOf(tool), descriptionTokens, hints };
  });
  return { total: tokensOf({ tools }), tools: measured };
}
