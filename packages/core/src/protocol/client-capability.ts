import { UserError } from '../registry/index.js';
import { featuresOf, sinceOf, type RevisionFeatures } from './eras/revisions.js';
import type { RequestRecord } from './request-record.js';

/**
 * The client cannot do what the handler asked (no such capability, or a revision without the
 * feature). A `UserError`, so a tool reports it as an `isError` result the model can read.
 */
export class ClientCapabilityError extends UserError {
  override name = 'ClientCapabilityError';
}

/**
 * The request's client capabilities lack one a handler needs. Legacy: an `isError` tool result
 * naming it; 2026-07-28: -32021 with `data.requiredCapabilities`, before anything is sent.
 *
 * @example
 * ```ts
 * throw new MissingCapabilityError('This tool needs sampling; declare it', { sampling: {} });
 * ```
 */
export class MissingCapabilityError extends ClientCapabilityError {
  override name = 'MissingCapabilityError';
  constructor(
    message: string,
    /** A ClientCapabilities object, e.g. `{ sampling: {} }`. */
    readonly required: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function hasCapability(record: RequestRecord, path: readonly string[]): boolean {
  let node: unknown = record.clientCapabilities;
  for (const key of path) {
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[key]
        : undefined;
  }
  return node !== undefined && node !== null;
}

export function requireCapability(
  record: RequestRecord,
  path: readonly string[],
  what: string,
): void {
  if (hasCapability(record, path)) return;
  const client = record.clientInfo.name ? ` (${record.clientInfo.name})` : '';
  const required = path.reduceRight<Record<string, unknown>>(
    (inner, key) => ({ [key]: inner }),
    {},
  );
  throw new MissingCapabilityError(
    `${what} needs the client capability "${path.join('.')}", which this client${client} did not declare`,
    required,
  );
}

export function requireRevision(
  record: RequestRecord,
  feature: keyof RevisionFeatures,
  what: string,
): void {
  if (!featuresOf(record.protocolVersion)[feature]) {
    throw new ClientCapabilityError(
      `${what} is not available in protocol revision ${record.protocolVersion}; it needs ${sinceOf(feature)} or later`,
    );
  }
}
