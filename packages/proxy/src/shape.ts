import { type McpFwServer, StartupError, type ToolTransform } from '@mcp-fw/core';
import type { ProxyTask } from './mirror.js';
import { memberName } from './naming.js';

/** What one upstream's settings say about how its members are served (see `UpstreamOptions`). */
export interface UpstreamShape {
  readonly tools?: Readonly<Record<string, ToolTransform>>;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly tasks?: Readonly<Record<string, ProxyTask>>;
}

const TOOL_KEYS = new Set(['name', 'title', 'description', 'args', 'output', 'wrap']);
const TASK_KEYS = new Set(['mode', 'deferred', 'ttlMs', 'pollIntervalMs']);
const TASK_MODES = new Set(['forbidden', 'optional', 'required']);
const ARG_KEYS = new Set(['name', 'description', 'hide', 'value', 'default', 'type', 'required']);

/**
 * Checks an upstream's `tools`, `include` and `exclude` before anything is connected, so a typo
 * in a gateway file fails at load naming the upstream, the tool and the fix. Whether the tool
 * and its arguments exist can only be known once the upstream answers (see {@link applyShape}).
 */
export function checkShape(upstream: string, shape: UpstreamShape): void {
  const fail = (why: string, fix: string): never => {
    throw new StartupError('INVALID_TRANSFORM', `upstream "${upstream}": ${why}. Fix: ${fix}`);
  };
  const example = `"tools": { "read_text_file": { "name": "read", "args": { "tail": { "hide": true } } } }`;
  if (shape.tools !== undefined) {
    if (typeof shape.tools !== 'object' || shape.tools === null || Array.isArray(shape.tools))
      fail('"tools" must be an object of tool names', `write ${example}`);
    for (const [tool, spec] of Object.entries(shape.tools)) {
      const where = `the tool "${tool}"`;
      if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
        fail(`${where} must be given an object`, `write ${example}`);
      for (const key of Object.keys(spec))
        if (!TOOL_KEYS.has(key))
          fail(
            `${where} has an unknown key "${key}"`,
            'a tool takes name, title, description and args',
          );
      if (spec.name !== undefined && (typeof spec.name !== 'string' || spec.name === ''))
        fail(`${where}: "name" must be a non-empty string`, `write "name": "read"`);
      if (spec.args === undefined) continue;
      if (typeof spec.args !== 'object' || spec.args === null || Array.isArray(spec.args))
        fail(`${where}: "args" must be an object of argument names`, `write ${example}`);
      for (const [arg, argSpec] of Object.entries(spec.args)) {
        const at = `${where}, argument "${arg}"`;
        if (typeof argSpec !== 'object' || argSpec === null || Array.isArray(argSpec))
          fail(`${at} must be given an object`, 'write { "hide": true } or { "name": "…" }');
        for (const key of Object.keys(argSpec))
          if (!ARG_KEYS.has(key))
            fail(
              `${at} has an unknown key "${key}"`,
              'an argument takes name, description, hide, value, default, type and required',
            );
        if (argSpec.hide !== undefined && typeof argSpec.hide !== 'boolean')
          fail(`${at}: "hide" must be true or false`, 'write "hide": true');
        if (argSpec.name !== undefined && (typeof argSpec.name !== 'string' || argSpec.name === ''))
          fail(`${at}: "name" must be a non-empty string`, 'write "name": "path"');
      }
    }
  }
  if (shape.tasks !== undefined) {
    if (typeof shape.tasks !== 'object' || shape.tasks === null || Array.isArray(shape.tasks))
      fail(
        '"tasks" must be an object of tool names',
        `write "tasks": { "build": "required", "deploy": { "mode": "optional", "deferred": true } }`,
      );
    for (const [tool, task] of Object.entries(shape.tasks)) {
      const spec = typeof task === 'string' ? { mode: task } : task;
      const ok =
        typeof spec === 'object' &&
        spec !== null &&
        !Array.isArray(spec) &&
        Object.keys(spec).every((k) => TASK_KEYS.has(k)) &&
        (spec.mode === undefined || TASK_MODES.has(spec.mode)) &&
        (spec.deferred === undefined || typeof spec.deferred === 'boolean') &&
        [spec.ttlMs, spec.pollIntervalMs].every(
          (n) => n === undefined || (Number.isInteger(n) && n > 0),
        );
      if (!ok)
        fail(
          `the task of the tool "${tool}" must be 'forbidden', 'optional', 'required' or { mode, deferred, ttlMs, pollIntervalMs }; got ${JSON.stringify(task)}`,
          `write "${tool}": "optional" or { "mode": "required", "deferred": true }`,
        );
    }
  }
  for (const key of ['include', 'exclude'] as const) {
    const names = shape[key];
    if (names === undefined) continue;
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n === ''))
      fail(
        `"${key}" must be an array of the upstream's tool and prompt names`,
        `write "${key}": ["read_text_file", "list_directory"]`,
      );
  }
}

/**
 * Applies an upstream's shape with core's `server.transform` and `server.filter`, once its
 * members are served: `tools` are named as the upstream names them (the namespace is added
 * here, and a new name is namespaced too); `include` keeps only the listed tools and prompts
 * of this upstream, `exclude` drops the listed ones. Throws core's {@link StartupError}, with the
 * upstream named, when a tool or argument does not exist upstream.
 */
export function applyShape(
  server: McpFwServer,
  upstream: string,
  namespace: string | undefined,
  separator: string,
  shape: UpstreamShape,
): void {
  const served = (name: string) => memberName(namespace, name, separator);
  const finalName = (name: string) => served(shape.tools?.[name]?.name ?? name);
  for (const [tool, spec] of Object.entries(shape.tools ?? {})) {
    try {
      server.transform(
        served(tool),
        spec.name === undefined ? spec : { ...spec, name: served(spec.name) },
      );
    } catch (error) {
      if (!(error instanceof StartupError)) throw error;
      throw new StartupError(
        'INVALID_TRANSFORM',
        `upstream "${upstream}", tool "${tool}": ${error.message}`,
      );
    }
  }
  // Filters are server-wide and match served names, so this upstream's are pinned to its prefix.
  if (shape.exclude?.length) server.filter({ exclude: { names: shape.exclude.map(finalName) } });
  if (shape.include !== undefined) {
    const kept = shape.include.map((n) => escapeRegExp(finalName(n))).join('|');
    const prefix = namespace ? escapeRegExp(`${namespace}${separator}`) : '';
    server.filter({ exclude: { names: [new RegExp(`^(?=${prefix})(?!(?:${kept})$)`)] } });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
