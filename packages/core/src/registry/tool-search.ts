import type { JsonSchema } from '../schema/index.js';
import { builtInTool } from './built-in-tool.js';
import { Bm25Index, type Bm25Doc } from './bm25.js';
import type { CallToolResult } from './content.js';
import { InvalidArgumentsError, StartupError, ToolExecutionError, UserError } from './errors.js';
import { invokeTool } from './invoke-tool.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * How `server.searchTools()` replaces a large `tools/list`: clients list `search_tools`,
 * `call_tool` and the `alwaysVisible` tools; `search_tools` ranks the others (BM25 over names
 * split on `_` `-` and camelCase, descriptions, and argument names and descriptions) and
 * `call_tool` calls one by name, validated by its own input and output schemas.
 *
 * @example
 * ```ts
 * server.searchTools({ alwaysVisible: ['whoami'], maxResults: 5 });
 * // a client: callTool('search_tools', { query: 'close an issue' }) → ranked tools with schemas
 * //           callTool('call_tool', { name: 'issues_close', arguments: { owner, repo, issue_number } })
 * ```
 */
export interface ToolSearch {
  /** Tools still listed as themselves (names as served, after transforms). */
  readonly alwaysVisible?: readonly string[];
  /** How many tools `search_tools` returns at most (default 5, at most 50). */
  readonly maxResults?: number;
}

function searchTool(
  name: string,
  description: string,
  inputSchema: JsonSchema,
  handler: (args: Record<string, unknown>, ctx: unknown) => unknown,
): ToolDefinition {
  return builtInTool('server.searchTools', name, description, inputSchema, handler);
}

// A tool with OAuth scopes or middleware of its own is guarded where tools/call dispatches it;
// call_tool would skip that, so such a tool stays listed as itself instead of behind search.
const guarded = (t: ToolDefinition) => t.scopes.length > 0 || t.middleware.length > 0;

function document(t: ToolDefinition): Bm25Doc {
  const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
  const args = Object.entries(props)
    .map(([k, v]) => `${k} ${typeof v?.description === 'string' ? v.description : ''}`)
    .join(' ');
  return {
    key: t.name,
    fields: [
      { text: t.name, weight: 3 },
      { text: t.title ?? '', weight: 2 },
      { text: t.description ?? '', weight: 1 },
      { text: args, weight: 1 },
    ],
  };
}

/** Refuses options that cannot work, at startup: a bad `maxResults`, an unknown visible tool. */
export function checkToolSearch(search: ToolSearch, served: readonly string[]): void {
  const unknown = (search.alwaysVisible ?? []).filter((n) => !served.includes(n));
  if (unknown.length > 0)
    throw new StartupError(
      'INVALID_TRANSFORM',
      `server.searchTools: alwaysVisible names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, which no tool is served as. Fix: use the names clients see (after transforms and mounts), and call searchTools after mount and transform.`,
    );
  const max = search.maxResults;
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > 50))
    throw new StartupError(
      'INVALID_TRANSFORM',
      `server.searchTools: maxResults must be an integer from 1 to 50 (got ${String(max)}). Fix: pass e.g. { maxResults: 5 }.`,
    );
}

/**
 * The tools clients list once search replaces `tools`: the always-visible and guarded ones,
 * then `search_tools` and `call_tool` over the rest. Built again whenever the served tools
 * change, so search follows runtime changes and mounted members.
 */
export function searchable(tools: readonly ToolDefinition[], search: ToolSearch): ToolDefinition[] {
  const visible = new Set(search.alwaysVisible ?? []);
  const shown = tools.filter((t) => visible.has(t.name) || guarded(t));
  const hidden = new Map(tools.filter((t) => !shown.includes(t)).map((t) => [t.name, t]));
  const index = new Bm25Index([...hidden.values()].map(document));
  const max = search.maxResults ?? 5;
  const find = searchTool(
    'search_tools',
    `Finds this server's tools (${hidden.size} of them are reached only this way) for a task described in words. Returns up to ${max} tools, best first, with their input schemas; call one with call_tool.`,
    {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'What you want to do, in words' },
        limit: { type: 'integer', minimum: 1, maximum: max, description: `At most ${max}` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    ({ query, limit }): CallToolResult => {
      const hits = index.search(query as string, (limit as number | undefined) ?? max);
      const found = hits.map(({ key }) => {
        const t = hidden.get(key) as ToolDefinition;
        return { name: t.name, description: t.description, inputSchema: t.inputSchema };
      });
      return {
        content: [{ type: 'text', text: JSON.stringify({ tools: found }, null, 2) }],
        structuredContent: { tools: found },
      };
    },
  );
  const call = searchTool(
    'call_tool',
    'Calls a tool found with search_tools, by name, with its arguments (as its inputSchema describes them).',
    {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name search_tools returned' },
        arguments: { type: 'object', description: 'The tool arguments' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    async ({ name, arguments: args }, ctx) => {
      const target = hidden.get(name as string);
      if (!target) {
        const direct = shown.some((t) => t.name === name);
        throw new UserError(
          direct
            ? `"${name as string}" is listed in tools/list; call it directly, not through call_tool.`
            : `No tool "${name as string}"; search_tools finds the tool names call_tool accepts.`,
        );
      }
      try {
        return await invokeTool(target, args ?? {}, ctx);
      } catch (error) {
        // Bad arguments are the model's to fix: said as an error result naming the tool.
        if (error instanceof InvalidArgumentsError) throw new UserError(error.message);
        // The tool's own failure, unwrapped so masking judges it as if it were called directly.
        if (error instanceof ToolExecutionError) throw error.cause;
        throw error;
      }
    },
  );
  return [...shown, find, call];
}
