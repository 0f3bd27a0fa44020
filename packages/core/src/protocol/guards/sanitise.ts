import type { CallToolResult, ContentBlock } from '../../registry/index.js';

/**
 * What happens to control characters in tool text: `escape` (default) writes them as `\u001b`,
 * visible and harmless; `strip` removes them; `keep` sends them as they are. Tabs and line
 * breaks always stay. Covered: C0 and C1 controls, DEL, and the bidirectional overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069) that can make text read differently than it is.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Terminal], limits: { controlChars: 'strip' } });
 * // a tool returning '[31mred' sends 'red' ('escape', the default, sends '\u001b[31mred')
 * ```
 */
export type ControlChars = 'escape' | 'strip' | 'keep';

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');

/** The text with its control characters escaped or stripped. */
export function sanitiseText(text: string, mode: Exclude<ControlChars, 'keep'>): string {
  if (!CONTROL.test(text)) return text;
  return mode === 'strip' ? text.replace(CONTROL_ALL, '') : text.replace(CONTROL_ALL, escapeChar);
}

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * The result with its text blocks sanitised; the tool's own objects are never changed (a copy
 * is made only when some text needs it).
 */
export function sanitiseToolResult(
  result: CallToolResult,
  mode: Exclude<ControlChars, 'keep'>,
): CallToolResult {
  const content = result?.content;
  if (!Array.isArray(content)) return result;
  let copy: ContentBlock[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (block?.type !== 'text' || typeof block.text !== 'string') continue;
    const text = sanitiseText(block.text, mode);
    if (text === block.text) continue;
    copy ??= content.slice();
    copy[i] = { ...block, text };
  }
  return copy ? { ...result, content: copy } : result;
}
