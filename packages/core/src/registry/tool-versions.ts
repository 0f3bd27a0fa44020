import type { ToolDeprecation, ToolOptions } from '../decorators/index.js';
import { StartupError } from './errors.js';
import type { ToolDefinition } from './tool-definition.js';

/** A tool's declared version (`_meta.version`), or undefined. */
export const versionOf = (tool: { _meta?: Record<string, unknown> }): string | undefined => {
  const version = tool._meta?.version;
  return version === undefined ? undefined : String(version);
};

/**
 * Orders versions the way people read them: dot-separated parts, numeric parts as numbers
 * (`1.10` after `1.9`), others as text; an unversioned tool comes before every version.
 */
export function compareVersions(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The `_meta` and description a tool's `version` and `deprecated` options give it; refuses, at
 * startup, a version that is not a short plain string and a sunset that is not a date.
 */
export function versionedMeta(
  options: ToolOptions,
  meta: Record<string, unknown> | undefined,
  description: string | undefined,
  origin: string,
): { _meta: Record<string, unknown> | undefined; description: string | undefined } {
  const { version, deprecated } = options;
  if (version === undefined && deprecated === undefined) return { _meta: meta, description };
  if (version !== undefined && (typeof version !== 'string' || !/^[\w.+-]{1,64}$/.test(version)))
    throw new StartupError(
      'INVALID_NAME',
      `${origin}: version must be a string of 1–64 letters, digits, ".", "_", "+" or "-" (got ${JSON.stringify(version)}). Fix: e.g. @Tool({ version: '2' }) or { version: '1.3' }.`,
    );
  const notice: ToolDeprecation | undefined =
    deprecated === undefined
      ? undefined
      : deprecated === true
        ? {}
        : typeof deprecated === 'string'
          ? { message: deprecated }
          : deprecated;
  if (notice?.sunset !== undefined && Number.isNaN(Date.parse(notice.sunset)))
    throw new StartupError(
      'INVALID_NAME',
      `${origin}: deprecated.sunset must be an ISO 8601 date (got ${JSON.stringify(notice.sunset)}). Fix: give the day as year-month-day (ISO 8601), or leave sunset out.`,
    );
  const said =
    notice &&
    [
      notice.message,
      notice.use && `Use ${notice.use} instead.`,
      notice.sunset && `Removed after ${notice.sunset}.`,
    ]
      .filter(Boolean)
      .join(' ');
  return {
    _meta: {
      ...meta,
      ...(version !== undefined && { version }),
      ...(notice && { deprecated: { ...notice } }),
    },
    description: notice
      ? `Deprecated${said ? `: ${said}` : '.'}${description ? ` ${description}` : ''}`
      : description,
  };
}

/**
 * The tools clients are served: of several versions of one name, the newest (after filters,
 * so `filter({ include: { versions: ['1'] } })` serves version 1). Two tools of one name and
 * one version are a duplicate, as two unversioned ones always were.
 */
export function newestVersions(tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  const newest = new Map<string, ToolDefinition>();
  let versioned = false;
  for (const tool of tools) {
    const seen = newest.get(tool.name);
    if (seen) versioned = true;
    if (!seen || compareVersions(versionOf(tool), versionOf(seen)) > 0) newest.set(tool.name, tool);
  }
  return versioned ? tools.filter((t) => newest.get(t.name) === t) : tools;
}
