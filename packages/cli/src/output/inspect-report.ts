import type { ServerLists } from '../client/lists.js';
import type { InitializeResult, JsonSchema } from '../client/wire.js';
import type { Style } from './style.js';

/** The `type` of a JSON Schema, in a few words: `string`, `number[]`, `"a" | "b"`, `object`. */
export function typeOf(schema: JsonSchema | undefined): string {
  if (!schema || typeof schema !== 'object') return 'any';
  if (Array.isArray(schema.enum))
    return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.map((s: JsonSchema) => typeOf(s)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeOf(schema.items)}[]`;
  return typeof type === 'string' ? type : 'any';
}

/** The properties of an object schema as aligned rows: name, type, required, description. */
function argumentRows(schema: JsonSchema | undefined, indent: string, style: Style): string[] {
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length === 0) return [`${indent}${style.dim('(no arguments)')}`];
  const required = new Set<string>(schema?.required ?? []);
  const rows = properties.map(([name, p]) => [
    name,
    typeOf(p),
    required.has(name) ? 'required' : 'optional',
    p.description ?? '',
  ]);
  return table(rows, indent, style);
}

function table(rows: string[][], indent: string, style: Style): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((row) =>
    (
      indent +
      row
        .map((cell, i) =>
          i === 0
            ? style.cyan(cell.padEnd(widths[i]))
            : i === row.length - 1
              ? cell
              : style.dim(cell.padEnd(widths[i])),
        )
        .join('  ')
    ).trimEnd(),
  );
}

function section<T>(
  title: string,
  items: readonly T[],
  style: Style,
  body: (item: T) => string[],
): string[] {
  const lines = ['', style.bold(`${title} (${items.length})`)];
  if (items.length === 0) lines.push(`  ${style.dim('none')}`);
  for (const item of items) lines.push(...body(item));
  return lines;
}

/**
 * What `mcp-fw inspect` prints: the server's identity, then its tools (arguments and output
 * fields), resources, resource templates and prompts, as aligned plain-text tables.
 */
export function inspectReport(
  initialize: InitializeResult,
  lists: ServerLists,
  style: Style,
): string {
  const info = initialize.serverInfo ?? {};
  const lines = [`${style.bold(String(info.name ?? 'server'))} ${info.version ?? ''}`.trimEnd()];
  if (initialize.instructions) lines.push(style.dim(String(initialize.instructions)));
  lines.push(
    ...section('Tools', lists.tools, style, (tool) => {
      const out = [
        `  ${style.cyan(tool.name)}${tool.description ? ` — ${tool.description}` : ''}`,
        ...argumentRows(tool.inputSchema, '      ', style),
      ];
      if (tool.outputSchema) {
        const fields = Object.entries(tool.outputSchema.properties ?? {});
        out.push(
          `      ${style.dim('returns')} ${fields.map(([name, p]) => `${name}: ${typeOf(p)}`).join(', ') || typeOf(tool.outputSchema)}`,
        );
      }
      return out;
    }),
    ...section('Resources', lists.resources, style, (r) => [
      `  ${style.cyan(r.uri)}  ${r.name ?? ''}${r.mimeType ? style.dim(` (${r.mimeType})`) : ''}${r.description ? ` — ${r.description}` : ''}`,
    ]),
    ...section('Resource templates', lists.resourceTemplates, style, (t) => [
      `  ${style.cyan(t.uriTemplate)}  ${t.name ?? ''}${t.mimeType ? style.dim(` (${t.mimeType})`) : ''}${t.description ? ` — ${t.description}` : ''}`,
    ]),
    ...section('Prompts', lists.prompts, style, (p) => {
      const args = p.arguments ?? [];
      const rows = args.map((a) => [
        a.name,
        'string',
        a.required ? 'required' : 'optional',
        a.description ?? '',
      ]);
      return [
        `  ${style.cyan(p.name)}${p.description ? ` — ${p.description}` : ''}`,
        ...(rows.length ? table(rows, '      ', style) : [`      ${style.dim('(no arguments)')}`]),
      ];
    }),
  );
  return `${lines.join('\n')}\n`;
}
