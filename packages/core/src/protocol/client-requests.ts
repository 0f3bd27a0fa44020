import { JsonRpcError, REQUEST_TIMEOUT_CODE } from '../jsonrpc/index.js';
import { compileElicitation, InvalidArgumentsError } from '../registry/index.js';
import { requireCapability, requireRevision, ClientCapabilityError } from './client-capability.js';
import type { RequestRecord } from './request-record.js';
import { featuresOf } from './revisions.js';
import type { Scope } from './server-core.js';

/** Options of server→client requests made from a handler. */
export interface ClientRequestOptions {
  /** How long to wait for the client's answer (default: the server's `clientRequestTimeoutMs`). */
  timeoutMs?: number;
}

/** The user's answer to an elicitation; `content` is validated against the schema when accepted. */
export type ElicitResult<T> =
  | { action: 'accept'; content: T }
  | { action: 'decline' | 'cancel'; content?: undefined };

/**
 * Sends a real server→client request on the calling request's stream, tied to its signal (a
 * cancelled call cancels the question) and bounded by a timeout that names what timed out.
 */
async function ask(record: RequestRecord, scope: Scope, method: string, params: unknown, options: ClientRequestOptions): Promise<any> {
  const timeoutMs = options.timeoutMs ?? scope.core.clientRequestTimeoutMs;
  try {
    return await scope.engine.request(method, params, { timeoutMs, signal: record.request.signal, relatedTo: record.request });
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === REQUEST_TIMEOUT_CODE) {
      throw new ClientCapabilityError(`the client did not answer ${method} within ${timeoutMs} ms`);
    }
    throw error;
  }
}

export async function elicitForm<T>(
  record: RequestRecord,
  scope: Scope,
  message: string,
  schema: object,
  options: ClientRequestOptions = {},
): Promise<ElicitResult<T>> {
  requireRevision(record, featuresOf(record.protocolVersion).elicitation, 'ctx.elicit', '2025-06-18');
  requireCapability(record, ['elicitation'], 'ctx.elicit');
  const caps = record.clientCapabilities.elicitation as Record<string, unknown>;
  // 2025-11-25 clients list modes; an empty object means form only (backwards compatible).
  if (Object.keys(caps).length > 0 && !('form' in caps)) requireCapability(record, ['elicitation', 'form'], 'ctx.elicit (form mode)');
  const { requestedSchema, validate } = compileElicitation(schema);
  const result = await ask(record, scope, 'elicitation/create', { message, requestedSchema }, options);
  if (result?.action !== 'accept') return { action: result?.action === 'decline' ? 'decline' : 'cancel' };
  const checked = await validate(result.content ?? {});
  if (!checked.ok) throw new InvalidArgumentsError('elicitation', checked.issues);
  return { action: 'accept', content: checked.value as T };
}

export async function elicitUrl(
  record: RequestRecord,
  scope: Scope,
  message: string,
  url: string,
  options: ClientRequestOptions = {},
): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
  requireRevision(record, featuresOf(record.protocolVersion).urlElicitation, 'ctx.elicitUrl', '2025-11-25');
  requireCapability(record, ['elicitation', 'url'], 'ctx.elicitUrl');
  const elicitationId = crypto.randomUUID();
  const result = await ask(record, scope, 'elicitation/create', { mode: 'url', message, url, elicitationId }, options);
  const action = result?.action === 'accept' || result?.action === 'decline' ? result.action : 'cancel';
  return { action, elicitationId };
}

/** A `sampling/createMessage` request; a string is one user message. */
export type SampleRequest =
  | string
  | {
      messages: unknown[];
      maxTokens?: number;
      systemPrompt?: string;
      tools?: unknown[];
      toolChoice?: unknown;
      [key: string]: unknown;
    };

export async function sample(record: RequestRecord, scope: Scope, request: SampleRequest, options: ClientRequestOptions = {}): Promise<any> {
  requireCapability(record, ['sampling'], 'ctx.sample');
  const params =
    typeof request === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: request } }], maxTokens: 1000 }
      : { maxTokens: 1000, ...request };
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    requireRevision(record, featuresOf(record.protocolVersion).samplingTools, 'ctx.sample with tools', '2025-11-25');
    requireCapability(record, ['sampling', 'tools'], 'ctx.sample with tools');
  }
  return ask(record, scope, 'sampling/createMessage', params, options);
}

export async function listRoots(
  record: RequestRecord,
  scope: Scope,
  options: ClientRequestOptions = {},
): Promise<{ uri: string; name?: string }[]> {
  requireCapability(record, ['roots'], 'ctx.roots');
  const result = await ask(record, scope, 'roots/list', {}, options);
  return Array.isArray(result?.roots) ? result.roots : [];
}
