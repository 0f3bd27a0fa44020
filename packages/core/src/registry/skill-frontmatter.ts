import { parseYaml } from '#yaml';

/**
 * The YAML frontmatter of a `SKILL.md` as a JSON object, or a message saying why it is not one.
 * Split as the Skills extension's hosts split it (a leading BOM and CRLF line ends removed, the
 * block between a first `---` line and the next `---` line), and read with the YAML 1.2 core
 * schema hosts use, so the entry's `frontmatter` equals what a host parses from the file.
 */
export function readFrontmatter(
  markdown: string,
): { frontmatter: Record<string, unknown> } | { problem: string } {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith('---\n'))
    return { problem: 'it must begin with a "---" line opening the YAML frontmatter' };
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (!close) return { problem: 'its frontmatter has no closing "---" line' };
  let value: unknown;
  try {
    value = parseYaml(rest.slice(0, close.index), { schema: 'core', uniqueKeys: true });
  } catch (error) {
    return { problem: `its frontmatter is not valid YAML: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'its frontmatter must be a mapping of keys to values' };
  // Hosts compare the entry with the file field by field after a JSON round trip; a value JSON
  // cannot carry (.inf, .nan) would never compare equal.
  const json = JSON.stringify(value);
  if (!sameJson(JSON.parse(json), value))
    return {
      problem: 'its frontmatter holds a value JSON cannot represent (.inf or .nan); quote it',
    };
  return { frontmatter: value as Record<string, unknown> };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  const keys = Object.keys(a as object);
  if (keys.length !== Object.keys(b as object).length) return false;
  return keys.every((k) =>
    sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
