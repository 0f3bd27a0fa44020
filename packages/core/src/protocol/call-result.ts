import type { CallToolResult, ContentBlock } from '../registry/index.js';
import type { RevisionFeatures } from './eras/revisions.js';

/**
 * A tools/call result as the negotiated revision can carry it. Content kinds an older revision
 * lacks become a text block that says what was left out, instead of an invalid message.
 */
export function callResultForRevision(result: CallToolResult, f: RevisionFeatures): CallToolResult {
  if (f.structured) return result;
  const content = result.content.map((block) => contentForRevision(block, f));
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content };
}

/** One content block as the revision can carry it (prompt messages use this too). */
export function contentForRevision(block: ContentBlock, f: RevisionFeatures): ContentBlock {
  if (block.type === 'resource_link' && !f.structured) {
    return { type: 'text', text: `Resource: ${block.name} <${block.uri}>` };
  }
  if (block.type === 'audio' && !f.audio) {
    return {
      type: 'text',
      text: `[audio content (${block.mimeType}) is not supported by this protocol revision]`,
    };
  }
  return block;
}
