import { createServer } from '@mcp-fw/core';
import { DevPrompts } from './prompts.js';
import { StyleGuide } from './style-guide.js';

export const server = createServer({
  name: 'prompts',
  version: '0.1.0',
  instructions: 'Prompt templates for coding: git-commit, explain-code and review-code.',
  providers: [DevPrompts, StyleGuide],
});
