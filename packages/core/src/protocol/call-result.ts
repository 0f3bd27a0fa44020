import type { CallToolResult, ContentBlock } from '../registry/index.js';
import type { RevisionFeatures } from './revisions.js';

/**
 * A tools/call result as the negotiated revision can carry it. Content kinds an older revision
 * lacks become a text block that says what was left out, instead of an invalid message.
 */
export function callResultForRevision(result: CallToolResult, f: RevisionFeatures): CallToolResult {
  if (f.structured) return result;
  const content = result.content.map((block) => downgrade(block, f));
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content };
}

function downgrade(block: ContentBlock, f: RevisionFeatures): ContentBlock {
  if (block.type === 'resource_link') {
    return { type: 'text', text: `Resource: ${block.name} <${block.uri}>` };
  }
  if (block.type === 'audio' && !f.audio) {
    return { type: 'text', text: `[audio content (${block.mimeType}) is not supported by this protocol revision]` };
  }
  return block;
}
