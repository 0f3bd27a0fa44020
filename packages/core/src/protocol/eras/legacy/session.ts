import { JsonRpcError, type InboundRequest } from '../../../jsonrpc/index.js';
import { ErrorCode } from '../../error-codes.js';
import {
  progressTokenOf,
  type ClientCapabilities,
  type ClientInfo,
  type RequestRecord,
} from '../../request-record.js';

/** What an `initialize` handshake fixed for the rest of a legacy connection. */
export interface Handshake {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: ClientInfo;
}

/** The state a legacy (initialize-era) connection carries between requests. */
export class LegacySession {
  #handshake?: Handshake;
  logLevel?: string;
  initializedNotified = false;
  /** URIs this session subscribed to with `resources/subscribe`. */
  readonly subscriptions = new Set<string>();

  get handshake(): Handshake | undefined {
    return this.#handshake;
  }

  begin(handshake: Handshake): void {
    if (this.#handshake) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        'Invalid Request: this connection is already initialized',
      );
    }
    this.#handshake = handshake;
  }

  /**
   * Builds the request record, refusing requests that need a handshake first. (`era` is typed
   * through the record: the era contract sits above this file and names it.)
   */
  record(
    request: InboundRequest,
    needsHandshake: boolean,
    era: RequestRecord['era'],
  ): RequestRecord {
    const handshake = this.#handshake;
    if (!handshake && needsHandshake) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: ${request.method} before initialize; the client must send initialize first`,
      );
    }
    return {
      request,
      era,
      protocolVersion: handshake?.protocolVersion ?? '',
      clientCapabilities: handshake?.clientCapabilities ?? {},
      clientInfo: handshake?.clientInfo ?? { name: 'unknown', version: '' },
      logLevel: this.logLevel,
      progressToken: progressTokenOf(request.params),
      auth: request.auth,
    };
  }
}
