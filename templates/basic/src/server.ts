import { createServer } from '@mcp-fw/core';
import { Greetings } from './greetings.js';
import { schemas } from './schemas.gen.js';

/** The server: what clients see (name, version, instructions) and the classes it exposes. */
export const server = createServer({
  name: 'mcp-fw-template-basic',
  version: '0.1.0',
  instructions: 'Greets people by name in English, French, Spanish or German.',
  providers: [Greetings],
  // Read from the methods' types and JSDoc by mcp-fw-schemas (src/schemas.gen.ts).
  schemas,
});
