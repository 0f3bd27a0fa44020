import { createServer } from '@mcp-fw/core';
import { ContentTools } from './content-tools.js';
import { InteractiveTools } from './interactive-tools.js';
import { TestPrompts } from './prompts.js';
import { TestResources } from './resources.js';
import { SchemaTools } from './schema-tools.js';

/**
 * The server the official conformance suite tests: every tool, resource, template and prompt
 * name its legacy (2025-11-25) scenarios call, with the reference payloads.
 */
export const server = createServer({
  name: 'mcp-fw-conformance',
  version: '0.1.0',
  providers: [ContentTools, InteractiveTools, SchemaTools, TestResources, TestPrompts],
});
