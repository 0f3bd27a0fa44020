import { withCodeMode, type CodeMode } from './code-mode.js';
import { StartupError } from './errors.js';
import { newestVersions } from './tool-versions.js';
import { filtered, type MemberFilter } from './member-filter.js';
import type { Members } from './scan.js';
import type { ToolDefinition } from './tool-definition.js';
import { searchable, type ToolSearch } from './tool-search.js';
import { transformTool, type ToolTransform } from './transform-tool.js';

/**
 * The transforms and filters of one server, in the order they were given, as the function a
 * registry applies to its own and mounted members (`Composition.shape`): tool transforms first
 * (by the name the tool had before them), then filters on the names clients will see, then the
 * extra tools (resources and prompts as tools), and last tool search or code mode, which hide
 * the tools behind `search_tools` / `call_tool` or a script tool.
 */
export class Transforms {
  readonly #tools = new Map<string, ToolTransform>();
  readonly #filters: MemberFilter[] = [];
  #extra: () => readonly ToolDefinition[] = () => [];
  #search: ToolSearch | undefined;
  #codeMode: CodeMode | undefined;

  get empty(): boolean {
    return (
      this.#tools.size === 0 &&
      this.#filters.length === 0 &&
      this.#extra().length === 0 &&
      this.#search === undefined &&
      this.#codeMode === undefined
    );
  }

  /** A copy with `spec` for the tool served as `name` (a second transform of it replaces the first). */
  withTool(name: string, spec: ToolTransform): Transforms {
    const next = this.#copy();
    next.#tools.set(name, spec);
    return next;
  }

  withFilter(filter: MemberFilter): Transforms {
    const next = this.#copy();
    next.#filters.push(filter);
    return next;
  }

  withExtraTools(extra: () => readonly ToolDefinition[]): Transforms {
    const next = this.#copy();
    next.#extra = extra;
    return next;
  }

  /** A copy that serves tools through search (a second call replaces the first). */
  withSearch(search: ToolSearch): Transforms {
    const next = this.#copy();
    next.#search = search;
    return next;
  }

  /** A copy that serves tools through a script tool (a second call replaces the first). */
  withCodeMode(codeMode: CodeMode): Transforms {
    const next = this.#copy();
    next.#codeMode = codeMode;
    return next;
  }

  /** Whether tool search or code mode already hides the tools (they do not combine). */
  get hiding(): 'searchTools' | 'codeMode' | undefined {
    return this.#search ? 'searchTools' : this.#codeMode ? 'codeMode' : undefined;
  }

  /** Names of the tools transformed, for checks. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  apply(members: Members): Members {
    let result: Members = members;
    if (this.#tools.size > 0)
      result = {
        ...result,
        tools: result.tools.map((t) => {
          const spec = this.#tools.get(t.name);
          return spec ? transformed(t, spec) : t;
        }),
      };
    for (const filter of this.#filters) result = filtered(result, filter);
    // One version per tool before search or code mode index them (the newest the filters left).
    if (this.#search || this.#codeMode) result = { ...result, tools: newestVersions(result.tools) };
    const extra = this.#extra();
    if (extra.length > 0) result = { ...result, tools: [...result.tools, ...extra] };
    if (this.#search) result = { ...result, tools: searchable(result.tools, this.#search) };
    if (this.#codeMode) result = { ...result, tools: withCodeMode(result.tools, this.#codeMode) };
    return result;
  }

  #copy(): Transforms {
    const next = new Transforms();
    for (const [k, v] of this.#tools) next.#tools.set(k, v);
    next.#filters.push(...this.#filters);
    next.#extra = this.#extra;
    next.#search = this.#search;
    next.#codeMode = this.#codeMode;
    return next;
  }
}

// Every runtime change re-applies the transforms: a tool and spec seen before give the same
// transformed tool, so its validator is compiled once (Ajv keeps what it compiled).
const results = new WeakMap<ToolDefinition, WeakMap<ToolTransform, ToolDefinition>>();

function transformed(tool: ToolDefinition, spec: ToolTransform): ToolDefinition {
  let bySpec = results.get(tool);
  if (!bySpec) results.set(tool, (bySpec = new WeakMap()));
  let result = bySpec.get(spec);
  if (!result) bySpec.set(spec, (result = transformTool(tool, spec)));
  return result;
}

/** Refuses a transform of a tool nobody serves: a typo should fail at startup, not hide nothing. */
export function checkTransformTarget(name: string, served: readonly string[]): void {
  if (!served.includes(name))
    throw new StartupError(
      'INVALID_TRANSFORM',
      `server.transform(${JSON.stringify(name)}): no tool of that name is served (tools: ${served.join(', ') || 'none'}). ` +
        'Fix: name the tool as it is served before transforms — a mounted one with its namespace, e.g. weather_get_forecast — and mount before transforming.',
    );
}
