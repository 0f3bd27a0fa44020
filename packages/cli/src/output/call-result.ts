import type { CallResult } from '../client/wire.js';

/**
 * A tool result as text for a terminal: each content block on its own (text as is, other kinds
 * described in one line), then the structured content as JSON when no text carries it.
 */
export function formatCallResult(result: CallResult): string {
  const blocks = (result.content ?? []).map((block) => {
    switch (block.type) {
      case 'text':
        return String(block.text);
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType}, ${Math.floor((String(block.data).length * 3) / 4)} bytes]`;
      case 'resource_link':
        return `[link ${block.uri}${block.name ? ` ${block.name}` : ''}]`;
      case 'resource':
        return block.resource?.text ?? `[resource ${block.resource?.uri}]`;
      default:
        return JSON.stringify(block);
    }
  });
  if (result.structuredContent !== undefined && !blocks.some((b) => b.trim().startsWith('{'))) {
    blocks.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return blocks.length ? `${blocks.join('\n')}\n` : '';
}
