import { serverCapabilities } from '../../capabilities.js';
import type { MethodSpec } from '../../server-core.js';
import { MODERN_REVISIONS } from './envelope.js';
import { skillsCapability } from '../../methods/skills.js';
import { tasksCapability } from './tasks-extension.js';

/** `server/discover`: what a 2026-07-28 client learns instead of an initialize handshake. */
export const discover: MethodSpec = {
  handle(_params, record, { core }) {
    const capabilities = serverCapabilities(core.registry, record.protocolVersion);
    const extensions = { ...tasksCapability(core.registry), ...skillsCapability(core) };
    if (Object.keys(extensions).length > 0)
      capabilities.extensions = { ...(capabilities.extensions ?? {}), ...extensions };
    const result: Record<string, unknown> = {
      supportedVersions: [...MODERN_REVISIONS],
      capabilities,
    };
    if (core.identity.instructions !== undefined) result.instructions = core.identity.instructions;
    return result;
  },
};
