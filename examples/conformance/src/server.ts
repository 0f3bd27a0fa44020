import type { McpFwServer } from '@mcp-fw/core';
import { loadSkills } from '@mcp-fw/core/node';
import { buildConformanceServer } from './conformance-server.js';

/**
 * The server the official conformance suite tests (conformance-server.ts), with the skills of
 * `skills/` (next to dist/ and src/ alike: examples/conformance/skills).
 */
export function createConformanceServer(): McpFwServer {
  return buildConformanceServer(loadSkills(new URL('../skills', import.meta.url)));
}
