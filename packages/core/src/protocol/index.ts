export { ServerConnection } from './connection.js';
export { Context } from './context.js';
export { ToolListCache } from './tool-list.js';
export { stderrLogger, type Logger } from './logger.js';
export { ErrorCode } from './error-codes.js';
export { LEGACY_REVISIONS, LATEST_LEGACY, type LegacyRevision } from './revisions.js';
export type { ServerCore, ServerIdentity } from './server-core.js';
export type { ClientInfo, ClientCapabilities } from './request-record.js';
