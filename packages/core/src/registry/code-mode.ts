import { builtInTool } from './built-in-tool.js';
import type { CallToolResult } from './content.js';
import { InvalidArgumentsError, StartupError, ToolExecutionError, UserError } from './errors.js';
import { invokeTool } from './invoke-tool.js';
import type { ToolDefinition } from './tool-definition.js';
import { toolSignatures } from './tool-signatures.js';

/**
 * What a script sandbox reports back: the JSON text of the value the script returned
 * (undefined when it returned nothing), or why it stopped.
 */
export type ScriptOutcome =
  | {
      readonly ok: true;
      /** `JSON.stringify` of the returned value, made inside the sandbox. */
      readonly json: string | undefined;
    }
  | {
      readonly ok: false;
      /** `error`: the script threw; `timeout` / `memory`: the sandbox stopped it at a limit. */
      readonly reason: 'error' | 'timeout' | 'memory';
      /** What the script threw (`Name: message (line n)`), for the model to fix. */
      readonly message: string;
    };

/** What a sandbox may reach of the server: the tool names, one call function, one log. */
export interface ScriptHost {
  /** The tools a script may call, by name. */
  readonly tools: readonly string[];
  /** Calls a tool; resolves with its structured result (else its text), rejects with an Error. */
  call(name: string, args: unknown): Promise<unknown>;
  /** A line the script logged; throws once the script's output is over its limit. */
  log(line: string): void;
  /** True once a limit of the host's (tool calls, output) is reached: end the script. */
  readonly stopped: boolean;
}

/**
 * Runs model-written JavaScript in isolation (`@mcp-fw/codemode`'s `quickJsSandbox()` is the
 * one mcp-fw ships): the script is the body of an async function, `tools` its only reach.
 *
 * @example
 * ```ts
 * import { quickJsSandbox } from '@mcp-fw/codemode';
 * server.codeMode({ sandbox: quickJsSandbox({ timeoutMs: 5000 }) });
 * ```
 */
export interface ScriptSandbox {
  /** The sandbox's own limits, stated in the tool's description. */
  readonly limits: { readonly timeoutMs: number; readonly memoryBytes: number };
  /** Runs one script; resolves (never rejects) with how it ended. */
  run(code: string, host: ScriptHost): Promise<ScriptOutcome>;
}

/**
 * How `server.codeMode()` serves tools (experimental): clients list one `run_script` tool (and
 * the `alwaysVisible` ones); its description declares the other tools as typed async functions
 * generated from their schemas, and the script calls them in the sandbox.
 *
 * @example
 * ```ts
 * server.codeMode({ sandbox: quickJsSandbox(), maxCalls: 20, alwaysVisible: ['whoami'] });
 * // a client: callTool('run_script', { code: 'const a = await tools.add({ a: 1, b: 2 }); return a * 2;' })
 * ```
 */
export interface CodeMode {
  /** Where scripts run: `quickJsSandbox()` from `@mcp-fw/codemode`. */
  readonly sandbox: ScriptSandbox;
  /** Tools still listed as themselves (names as served, after transforms). */
  readonly alwaysVisible?: readonly string[];
  /** Tool calls one script may make (default 50). */
  readonly maxCalls?: number;
  /** Bytes of returned JSON plus logged text one script may produce (default 65,536). */
  readonly maxOutputBytes?: number;
  /** The tool's name (default `run_script`). */
  readonly name?: string;
}

const positiveInteger = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0;

/** Refuses options that cannot work, at startup. */
export function checkCodeMode(codeMode: CodeMode, served: readonly string[]): void {
  const fail = (why: string) => {
    throw new StartupError('INVALID_TRANSFORM', `server.codeMode: ${why}`);
  };
  if (typeof codeMode?.sandbox?.run !== 'function')
    fail(
      "sandbox is missing. Fix: server.codeMode({ sandbox: quickJsSandbox() }) with quickJsSandbox from '@mcp-fw/codemode'.",
    );
  const unknown = (codeMode.alwaysVisible ?? []).filter((n) => !served.includes(n));
  if (unknown.length > 0)
    fail(
      `alwaysVisible names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, which no tool is served as. Fix: use the names clients see (after transforms and mounts), and call codeMode after mount and transform.`,
    );
  for (const option of ['maxCalls', 'maxOutputBytes'] as const)
    if (codeMode[option] !== undefined && !positiveInteger(codeMode[option]))
      fail(
        `${option} must be a positive integer (got ${String(codeMode[option])}). Fix: leave it out for the default, or pass e.g. { ${option}: ${option === 'maxCalls' ? 20 : 65536} }.`,
      );
  if (codeMode.name !== undefined && served.includes(codeMode.name))
    fail(
      `name "${codeMode.name}" is already a tool's. Fix: pick another name, e.g. { name: 'run_code' }.`,
    );
}

// As for search: a tool with scopes or middleware of its own is guarded where tools/call
// dispatches it, which a call from a script would skip; it stays listed as itself.
const guarded = (t: ToolDefinition) => t.scopes.length > 0 || t.middleware.length > 0;

/** The text a script sees for a tool result: structured content first, else the text blocks. */
function scriptValue(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content ?? [];
  if (blocks.every((b) => b.type === 'text'))
    return blocks.map((b) => (b as { text: string }).text).join('\n');
  return blocks;
}

const textOf = (result: CallToolResult) =>
  (result.content ?? [])
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/**
 * The tools clients list in code mode: the always-visible and guarded ones, then the script
 * tool over the rest. Built again whenever the served tools change.
 */
export function withCodeMode(
  tools: readonly ToolDefinition[],
  codeMode: CodeMode,
): ToolDefinition[] {
  const visible = new Set(codeMode.alwaysVisible ?? []);
  const shown = tools.filter((t) => visible.has(t.name) || guarded(t));
  const hidden = new Map(tools.filter((t) => !shown.includes(t)).map((t) => [t.name, t]));
  const maxCalls = codeMode.maxCalls ?? 50;
  const maxOutput = codeMode.maxOutputBytes ?? 65_536;
  const { timeoutMs, memoryBytes } = codeMode.sandbox.limits;
  const name = codeMode.name ?? 'run_script';
  const description =
    'Runs a JavaScript script in a sandbox where these tools are async functions on `tools`: ' +
    'chain several calls in one step and return only what you need. The script is the body of an ' +
    'async function: use await, and `return` a JSON value. A call resolves with the tool result ' +
    '(its structured content, else its text) and rejects with an Error when the tool fails. ' +
    `What it logs with console comes back too. Limits: ${timeoutMs} ms in all, ${kib(memoryBytes)} of memory, ` +
    `${maxCalls} tool calls, ${kib(maxOutput)} of output. No other globals (no fetch, require or process).\n\n` +
    toolSignatures([...hidden.values()]);
  const tool = builtInTool(
    'server.codeMode',
    name,
    description,
    {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          minLength: 1,
          maxLength: 100_000,
          description: 'The body of an async function, e.g. const a = await tools.x({}); return a;',
        },
      },
      required: ['code'],
      additionalProperties: false,
    },
    async ({ code }, ctx): Promise<CallToolResult> => {
      let calls = 0;
      let output = 0;
      const logs: string[] = [];
      let stopped: string | undefined;
      // An internal failure of a tool ends the script and is reported as that tool's own, so
      // masking and the server's log judge it exactly as a direct call.
      let internal: unknown;
      const host: ScriptHost = {
        tools: [...hidden.keys()],
        async call(toolName, args) {
          if (stopped !== undefined) throw new Error(stopped);
          if (++calls > maxCalls) {
            stopped = `the script made more than ${maxCalls} tool calls, the limit. Fix: do the work in fewer calls (batch what the tools allow), or split it over several scripts.`;
            throw new Error(stopped);
          }
          const target = hidden.get(toolName);
          if (!target)
            throw new Error(
              `No tool "${toolName}" in this script's tools; the ${name} description lists them.`,
            );
          let result: CallToolResult;
          try {
            result = await invokeTool(target, args ?? {}, ctx);
          } catch (error) {
            if (error instanceof InvalidArgumentsError || error instanceof UserError)
              throw new Error(error.message);
            if (error instanceof ToolExecutionError && error.cause instanceof UserError)
              throw new Error(`${toolName}: ${error.cause.message}`);
            internal ??= error;
            stopped = `${toolName} failed`;
            throw new Error(stopped);
          }
          if (result.isError) throw new Error(`${toolName}: ${textOf(result)}`);
          return scriptValue(result);
        },
        log(line) {
          output += new TextEncoder().encode(line).length + 1;
          if (output > maxOutput) {
            stopped ??= `the script's output is over the ${kib(maxOutput)} limit. Fix: log less and return only the fields you need (filter and slice in the script).`;
            throw new Error(stopped);
          }
          logs.push(line);
        },
        get stopped() {
          return stopped !== undefined;
        },
      };
      const outcome = await codeMode.sandbox.run(code as string, host);
      if (internal !== undefined) throw internal;
      if (stopped !== undefined) throw new UserError(`${name} stopped: ${stopped}`);
      if (!outcome.ok) {
        const why =
          outcome.reason === 'timeout'
            ? `it ran over the ${timeoutMs} ms limit (tool calls included). Fix: do less per script, and check loops end.`
            : outcome.reason === 'memory'
              ? `it ran out of memory (limit ${kib(memoryBytes)}). Fix: keep less in memory; return only what you need.`
              : `${outcome.message}. Fix the script and run it again.`;
        throw new UserError(`${name} ${outcome.reason === 'error' ? 'failed' : 'stopped'}: ${why}`);
      }
      const json = outcome.json;
      const bytes = json === undefined ? 0 : new TextEncoder().encode(json).length;
      if (output + bytes > maxOutput)
        throw new UserError(
          `${name} stopped: the script's output is ${kib(output + bytes)}, over the ${kib(maxOutput)} limit. Fix: return only the fields you need (filter and slice in the script).`,
        );
      const value: unknown = json === undefined ? null : JSON.parse(json);
      const content: CallToolResult['content'] = [
        { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) },
      ];
      if (logs.length > 0) content.push({ type: 'text', text: `logged:\n${logs.join('\n')}` });
      return { content, structuredContent: { result: value, logs, calls } };
    },
  );
  return [...shown, tool];
}
