import { createServer, type McpFwServer, type SkillSource } from '@mcp-fw/core';
import { ContentTools } from './content-tools.js';
import { InputRoundPrompts, InputRoundTools } from './input-rounds.js';
import { InteractiveTools } from './interactive-tools.js';
import { ListTriggers } from './list-triggers.js';
import { TestPrompts } from './prompts.js';
import { TestResources } from './resources.js';
import { SchemaTools } from './schema-tools.js';
import { StatelessProbes } from './stateless-probes.js';
import { TaskTools } from './task-tools.js';

/**
 * The server the official conformance suite tests: every tool, resource, template and prompt
 * name its scenarios call, at the 2025-11-25 and the 2026-07-28 wire, with the reference
 * payloads (conformance.md §5), and `skills` (the Skills extension's scenarios). A factory,
 * because the trigger tools change the lists. Runtime-neutral: the Worker (worker.ts) builds it
 * too, without the skills folder it cannot read.
 */
export function buildConformanceServer(skills?: readonly SkillSource[]): McpFwServer {
  const server = createServer({
    name: 'mcp-fw-conformance',
    version: '0.1.0',
    // The Server Card (<endpoint>/server-card) and the site's catalog are generated from these.
    description: 'The fixture the official MCP conformance suite tests mcp-fw against',
    registryName: 'io.github.mcp-fw/conformance',
    providers: [
      ContentTools,
      InteractiveTools,
      SchemaTools,
      InputRoundTools,
      StatelessProbes,
      TestResources,
      TestPrompts,
      InputRoundPrompts,
      TaskTools,
    ],
    skills,
  });
  // The triggers change this server's own lists, so they join once it exists.
  server.add(new ListTriggers(server));
  return server;
}
