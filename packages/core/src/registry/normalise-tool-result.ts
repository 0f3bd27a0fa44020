import { isContentBlock, type CallToolResult, type ContentBlock } from './content.js';

/**
 * Turns whatever a tool returned into a CallToolResult. With an output schema the value is the
 * structured result, mirrored as JSON text for clients that read only `content` (as the spec
 * recommends). Without one: strings become text, content blocks and arrays of them pass
 * through, a full result object passes through, anything else is sent as JSON text.
 */
export function normaliseToolResult(value: unknown, structured: boolean): CallToolResult {
  if (structured) {
    if (isCallToolResult(value)) return value;
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value as Record<string, unknown>,
    };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.every((v) => isContentBlock(v) || typeof v === 'string')) {
    return {
      content: value.map(
        (v): ContentBlock => (typeof v === 'string' ? { type: 'text', text: v } : v),
      ),
    };
  }
  if (isCallToolResult(value)) return value;
  return {
    content: [
      { type: 'text', text: typeof value === 'object' ? JSON.stringify(value) : String(value) },
    ],
  };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as CallToolResult).content) &&
    (value as CallToolResult).content.every(isContentBlock)
  );
}
