import { createServer } from '@mcp-fw/core';
import { Dice } from './dice.js';

/** The server: what clients see (name, version, instructions) and the classes it exposes. */
export const server = createServer({
  name: 'mcp-fw-template-apps',
  version: '0.1.0',
  instructions: 'Rolls dice; a host that renders MCP Apps shows them on a table.',
  providers: [Dice],
});
