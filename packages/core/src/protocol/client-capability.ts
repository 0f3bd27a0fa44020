import { UserError } from '../registry/index.js';
import type { RequestRecord } from './request-record.js';

/**
 * The client cannot do what the handler asked (no such capability, or a revision without the
 * feature). A `UserError`, so a tool reports it as an `isError` result the model can read.
 */
export class ClientCapabilityError extends UserError {
  override name = 'ClientCapabilityError';
}

export function requireCapability(record: RequestRecord, path: readonly string[], what: string): void {
  let node: unknown = record.clientCapabilities;
  for (const key of path) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === undefined || node === null) {
    const client = record.clientInfo.name ? ` (${record.clientInfo.name})` : '';
    throw new ClientCapabilityError(
      `${what} needs the client capability "${path.join('.')}", which this client${client} did not declare`,
    );
  }
}

export function requireRevision(record: RequestRecord, available: boolean, what: string, since: string): void {
  if (!available) {
    throw new ClientCapabilityError(
      `${what} is not available in protocol revision ${record.protocolVersion}; it needs ${since} or later`,
    );
  }
}
