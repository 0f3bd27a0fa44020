import type { InboundRequest } from '../../../jsonrpc/index.js';
import { progressTokenOf, type RequestRecord } from '../../request-record.js';
import type { Era } from '../era.js';
import {
  hasEnvelope,
  missingEnvelope,
  servedEnvelope,
  unsupportedVersion,
  type Envelope,
} from './envelope.js';

const UNKNOWN_CLIENT = Object.freeze({ name: 'unknown', version: '' });

/**
 * Envelopes the HTTP preflight already read and checked, by the request's `params` object: the
 * transport hands the very object it parsed on to the engine, so the record is built from the
 * checked envelope instead of reading it again. Keyed weakly by object identity, an entry lives
 * exactly as long as its request's params and can only be found by whoever holds them; this is
 * not state shared between requests.
 */
const checked = new WeakMap<object, Envelope>();

/**
 * Hands a checked envelope on to the admission of the request whose params carry it: from the
 * HTTP preflight, or from a connection's frame parser that rebuilt `_meta` from members it
 * already read and checked.
 */
export function handOn(params: object, envelope: Envelope): void {
  checked.set(params, envelope);
}

/** The envelope handed on for `params`, if any. */
export function handedOn(params: unknown): Envelope | undefined {
  return typeof params === 'object' && params !== null ? checked.get(params) : undefined;
}

/**
 * A stateless request's record, built from its own envelope (nothing carries over between
 * requests). A request without an envelope on a connection of this era is refused: -32022 for
 * an `initialize` (a legacy client meeting a stateless-only peer), -32602 otherwise.
 */
export function modernRecord(request: InboundRequest, era: Era): RequestRecord {
  const params = request.params;
  const envelope = handedOn(params) ?? readServed(request);
  return {
    request,
    era,
    protocolVersion: envelope.protocolVersion,
    clientCapabilities: envelope.clientCapabilities,
    clientInfo: envelope.clientInfo ?? UNKNOWN_CLIENT,
    logLevel: envelope.logLevel,
    progressToken: progressTokenOf(params),
    auth: request.auth,
  };
}

function readServed(request: InboundRequest): Envelope {
  if (!hasEnvelope(request.params)) {
    if (request.method === 'initialize') throw unsupportedVersion(request.params?.protocolVersion);
    throw missingEnvelope();
  }
  return servedEnvelope(request.params);
}
