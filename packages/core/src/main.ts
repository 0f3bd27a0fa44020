/**
 * @deprecated Import `serveFromArgs` from `@mcp-fw/core/serve`: this entry's name said nothing
 * about what it does. Kept so that projects generated before the rename still start.
 */
export { serveFromArgs } from './serve.js';
