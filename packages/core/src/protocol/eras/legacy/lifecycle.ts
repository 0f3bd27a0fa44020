import { JsonRpcError } from '../../../jsonrpc/index.js';
import { serverCapabilities } from '../../capabilities.js';
import { skillsCapability } from '../../methods/skills.js';
import { legacyTasksCapability } from './tasks.js';
import { ErrorCode } from '../../error-codes.js';
import { isLogLevel, LOG_LEVELS } from '../../log-levels.js';
import { featuresOf, isLegacyRevision, LATEST_LEGACY } from '../revisions.js';
import type { MethodSpec } from '../../server-core.js';
import type { ClientInfo } from '../../request-record.js';

export const initialize: MethodSpec = {
  beforeInitialize: true,
  handle(params, _record, { core, session }) {
    const requested = params?.protocolVersion;
    const capabilities = params?.capabilities;
    if (typeof requested !== 'string') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs params.protocolVersion (a string)',
      );
    }
    if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs params.capabilities (an object)',
      );
    }
    // Echo a version we speak; otherwise answer our latest and let the client decide (spec:
    // lifecycle, "Version Negotiation").
    const protocolVersion = isLegacyRevision(requested) ? requested : LATEST_LEGACY;
    const clientInfo = (params?.clientInfo as ClientInfo | undefined) ?? {
      name: 'unknown',
      version: '',
    };
    session.begin({
      protocolVersion,
      clientCapabilities: capabilities as Record<string, unknown>,
      clientInfo,
    });
    const { name, version, title, instructions, description, icons, websiteUrl } = core.identity;
    const serverInfo: Record<string, unknown> =
      title !== undefined && featuresOf(protocolVersion).structured
        ? { name, title, version }
        : { name, version };
    // SEP-973: description, icons and websiteUrl joined Implementation in 2025-11-25.
    if (featuresOf(protocolVersion).icons) {
      if (description !== undefined) serverInfo.description = description;
      if (icons?.length) serverInfo.icons = icons;
      if (websiteUrl !== undefined) serverInfo.websiteUrl = websiteUrl;
    }
    const served = serverCapabilities(core.registry, protocolVersion);
    const tasks = legacyTasksCapability(
      protocolVersion,
      core.registry.tools.some((t) => t.task.mode !== 'forbidden'),
    );
    if (tasks) served.tasks = tasks;
    // Extensions are declared in every revision (2025-11-25 hosts read the Skills backport).
    const extensions = skillsCapability(core);
    if (extensions) served.extensions = extensions;
    const result: Record<string, unknown> = { protocolVersion, capabilities: served, serverInfo };
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  },
};

export const ping: MethodSpec = {
  beforeInitialize: true,
  handle: () => ({}),
};

export const setLevel: MethodSpec = {
  handle(params, _record, { session }) {
    const level = params?.level;
    if (!isLogLevel(level)) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`,
      );
    }
    session.logLevel = level;
    return {};
  },
};
