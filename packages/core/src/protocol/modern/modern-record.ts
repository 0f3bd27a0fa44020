import type { InboundRequest } from '../../jsonrpc/index.js';
import { progressTokenOf, type RequestRecord } from '../request-record.js';
import { servedEnvelope, type Envelope } from './envelope.js';

const UNKNOWN_CLIENT = Object.freeze({ name: 'unknown', version: '' });

/**
 * A 2026-07-28 request's record, built from its own envelope (nothing carries over). `known` is
 * that envelope when it was already read and checked from the very same members
 * (EnvelopeMemo.envelopeOf).
 */
export function modernRecord(request: InboundRequest, known?: Envelope): RequestRecord {
  const envelope = known ?? servedEnvelope(request.params);
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
