import { Resource } from '@mcp-fw/core';

/** Where the team's style guide is served, and what `review-code` embeds. */
export const STYLE_GUIDE_URI = 'docs://style-guide';

/** Bundled, so the example runs offline. */
export const STYLE_GUIDE = [
  '# Code style',
  '',
  '- Name things for what they mean, not for their type.',
  '- Keep functions short; one level of abstraction each.',
  '- Handle errors where you can act on them; otherwise let them propagate.',
  '- Comments say why, not what.',
].join('\n');

/** Serves the style guide, so a client can also read what the prompt embeds. */
export class StyleGuide {
  @Resource(STYLE_GUIDE_URI, {
    name: 'style-guide',
    description: 'The team code style guide',
    mimeType: 'text/markdown',
  })
  styleGuide(): string {
    return STYLE_GUIDE;
  }
}
