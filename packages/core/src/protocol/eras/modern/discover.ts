import { serverCapabilities } from '../../capabilities.js';
import type { MethodSpec } from '../../server-core.js';
import { MODERN_REVISIONS } from './envelope.js';

/** `server/discover`: what a 2026-07-28 client learns instead of an initialize handshake. */
export const discover: MethodSpec = {
  handle(_params, record, { core }) {
    const result: Record<string, unknown> = {
      supportedVersions: [...MODERN_REVISIONS],
      capabilities: serverCapabilities(core.registry, record.protocolVersion),
    };
    if (core.identity.instructions !== undefined) result.instructions = core.identity.instructions;
    return result;
  },
};
