import { createServer, type McpFwServer } from '@mcp-fw/core';
import { AdminSwitch } from './admin.js';
import { readConfig } from './config.js';
import { simulatedPipeline } from './pipeline.js';
import { Release, type ReleaseOptions } from './release.js';

/**
 * The release server. The pipeline is a dependency (tests give their own); the confirmation
 * timeout is configurable so a client that never answers is noticed quickly in tests.
 */
export function createReleaseServer(options: ReleaseOptions): McpFwServer {
  const server = createServer({
    name: 'release',
    version: '0.1.0',
    instructions:
      'Publishes releases. publish_release asks the user to confirm first; ' +
      'summarize_changelog drafts an announcement.',
    providers: [new Release(options)],
  });
  server.add(new AdminSwitch(server));
  return server;
}

/**
 * The server as `main.ts` starts it (simulated pipeline, `RELEASE_*` settings), so that
 * `mcp-fw dev examples/release` and `mcp-fw inspect examples/release` can load it.
 */
export default function releaseServerFromEnv(): McpFwServer {
  const config = readConfig([], process.env);
  return createReleaseServer({
    pipeline: simulatedPipeline(config.stepMs),
    confirmTimeoutMs: config.confirmTimeoutMs,
  });
}
