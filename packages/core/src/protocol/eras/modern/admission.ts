import type { InboundRequest } from '../../../jsonrpc/index.js';
import { progressTokenOf, type PreflightTool, type RequestRecord } from '../../request-record.js';
import type { Era } from '../era.js';
import {
  hasEnvelope,
  missingEnvelope,
  servedEnvelope,
  unsupportedVersion,
  type Envelope,
} from './envelope.js';

const UNKNOWN_CLIENT = Object.freeze({ name: 'unknown', version: '' });

// The last envelope handed on (with the tool the HTTP preflight looked up, if it did), and the
// params it was read from. Handing on and admitting happen in one synchronous run (the HTTP
// preflight or the frame parser, then the engine, then admission), so one slot is enough;
// admission takes it, and params that are not the slot's are read as usual. One slot, not a
// map: nothing is kept per request.
let handedParams: object | undefined;
let handedEnvelope: Envelope | undefined;
let handedTool: PreflightTool | undefined;

/**
 * Hands a checked envelope on to the admission of the request whose params carry it: from the
 * HTTP preflight, or from a connection's frame parser that rebuilt `_meta` from members it
 * already read and checked. The preflight of a `tools/call` hands on the tool it looked up too.
 */
export function handOn(params: object, envelope: Envelope, tool?: PreflightTool): void {
  handedParams = params;
  handedEnvelope = envelope;
  handedTool = tool;
}

/** Takes the envelope handed on for `params`, if it is theirs. */
export function handedOn(params: unknown): Envelope | undefined {
  if (params !== handedParams || params === undefined) return undefined;
  const envelope = handedEnvelope;
  handedParams = handedEnvelope = handedTool = undefined;
  return envelope;
}

/**
 * A stateless request's record, built from its own envelope (nothing carries over between
 * requests). A request without an envelope on a connection of this era is refused: -32022 for
 * an `initialize` (a legacy client meeting a stateless-only peer), -32602 otherwise.
 */
export function modernRecord(request: InboundRequest, era: Era): RequestRecord {
  const params = request.params;
  const tool = params !== undefined && params === handedParams ? handedTool : undefined;
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
    preflightTool: tool,
  };
}

function readServed(request: InboundRequest): Envelope {
  if (!hasEnvelope(request.params)) {
    if (request.method === 'initialize') throw unsupportedVersion(request.params?.protocolVersion);
    throw missingEnvelope();
  }
  return servedEnvelope(request.params);
}
