import type { InboundRequest } from '../../jsonrpc/index.js';
import { progressTokenOf, type RequestRecord } from '../request-record.js';
import { checkVersion, readEnvelope } from './envelope.js';

const UNKNOWN_CLIENT = Object.freeze({ name: 'unknown', version: '' });

/** A 2026-07-28 request's record, built from its own envelope (nothing carries over). */
export function modernRecord(request: InboundRequest): RequestRecord {
  const envelope = readEnvelope(request.params);
  checkVersion(envelope.protocolVersion);
  return {
    request,
    era: 'modern',
    protocolVersion: envelope.protocolVersion,
    clientCapabilities: envelope.clientCapabilities,
    clientInfo: envelope.clientInfo ?? UNKNOWN_CLIENT,
    logLevel: envelope.logLevel,
    progressToken: progressTokenOf(request.params),
    auth: request.auth,
  };
}
