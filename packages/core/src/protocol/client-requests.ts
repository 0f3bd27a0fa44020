import { JsonRpcError, REQUEST_TIMEOUT_CODE } from '../jsonrpc/index.js';
import { compileElicitation, InvalidArgumentsError } from '../registry/index.js';
import { requireCapability, requireRevision, ClientCapabilityError } from './client-capability.js';
import { LimitError } from './guards/index.js';
import type { InputRun } from './input/input-run.js';
import type { RequestRecord } from './request-record.js';
import { featuresOf } from './revisions.js';
import type { SampleResult } from './sample-result.js';
import type { Scope } from './server-core.js';
import { refused } from './state-refusal.js';

/** Options of server→client requests made from a handler. */
export interface ClientRequestOptions {
  /** How long to wait for the client's answer (default: the server's `clientRequestTimeoutMs`). */
  timeoutMs?: number;
  /**
   * Under 2026-07-28, the key of this question in `inputRequests` (default `input_<n>`, from the
   * order of the questions). Keys must be the same on every run of the handler.
   */
  key?: string;
}

/** Where a question goes: the live channel (legacy) or the call's input run (2026-07-28). */
export interface Asker {
  readonly record: RequestRecord;
  readonly run?: InputRun;
  /** The handler's signal (a timeout narrows the request's): a question dies with the call. */
  readonly signal?: AbortSignal;
  /** Added to the question's `_meta` (middleware's `outboundMeta`, e.g. trace context). */
  readonly meta?: object;
}

/** The user's answer to an elicitation; `content` is validated against the schema when accepted. */
export type ElicitResult<T> =
  | { action: 'accept'; content: T }
  | { action: 'decline' | 'cancel'; content?: undefined };

function withMeta(params: unknown, meta: object): unknown {
  const p = (params ?? {}) as { _meta?: object };
  return { ...p, _meta: { ...p._meta, ...meta } };
}

/**
 * Sends a real server→client request on the calling request's stream, tied to its signal (a
 * cancelled call cancels the question) and bounded by a timeout that names what timed out.
 */
async function ask(
  asker: Asker,
  scope: Scope,
  method: string,
  params: unknown,
  options: ClientRequestOptions,
): Promise<any> {
  const { record, run } = asker;
  if (asker.meta) params = withMeta(params, asker.meta);
  if (record.era === 'modern') {
    if (!run)
      throw new ClientCapabilityError(
        `${method}: under 2026-07-28 only tools/call, prompts/get and resources/read may ask the client for input`,
      );
    return run.ask(method, params, options.key);
  }
  const timeoutMs = options.timeoutMs ?? scope.core.clientRequestTimeoutMs;
  const max = scope.core.guards.state.limits.maxPendingClientRequests;
  if (scope.engine.outboundPending >= max) {
    throw refused(
      record,
      scope,
      'maxPendingClientRequests',
      new LimitError(
        'maxPendingClientRequests',
        `${method} refused: ${max} requests to this client already await an answer (limits.maxPendingClientRequests); wait for them, or raise limits.maxPendingClientRequests`,
      ),
    );
  }
  try {
    return await scope.engine.request(method, params, {
      timeoutMs,
      signal: asker.signal ?? record.request.signal,
      relatedTo: record.request,
    });
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === REQUEST_TIMEOUT_CODE) {
      throw new ClientCapabilityError(`the client did not answer ${method} within ${timeoutMs} ms`);
    }
    throw error;
  }
}

export async function elicitForm<T>(
  asker: Asker,
  scope: Scope,
  message: string,
  schema: object,
  options: ClientRequestOptions = {},
): Promise<ElicitResult<T>> {
  const { record } = asker;
  requireRevision(
    record,
    featuresOf(record.protocolVersion).elicitation,
    'ctx.elicit',
    '2025-06-18',
  );
  requireCapability(record, ['elicitation'], 'ctx.elicit');
  const caps = record.clientCapabilities.elicitation as Record<string, unknown>;
  // 2025-11-25 clients list modes; an empty object means form only (backwards compatible).
  if (Object.keys(caps).length > 0 && !('form' in caps))
    requireCapability(record, ['elicitation', 'form'], 'ctx.elicit (form mode)');
  const { requestedSchema, validate } = compileElicitation(schema);
  const result = await ask(
    asker,
    scope,
    'elicitation/create',
    { message, requestedSchema },
    options,
  );
  if (result?.action !== 'accept')
    return { action: result?.action === 'decline' ? 'decline' : 'cancel' };
  const checked = await validate(result.content ?? {});
  if (!checked.ok)
    throw new InvalidArgumentsError('elicitation', checked.issues, 'elicitation answer');
  return { action: 'accept', content: checked.value as T };
}

export async function elicitUrl(
  asker: Asker,
  scope: Scope,
  message: string,
  url: string,
  options: ClientRequestOptions = {},
): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
  const { record } = asker;
  requireRevision(
    record,
    featuresOf(record.protocolVersion).urlElicitation,
    'ctx.elicitUrl',
    '2025-11-25',
  );
  requireCapability(record, ['elicitation', 'url'], 'ctx.elicitUrl');
  const elicitationId = crypto.randomUUID();
  // 2026-07-28 URL elicitations carry no elicitationId (protocol.md §4.1).
  const params =
    record.era === 'modern'
      ? { mode: 'url', message, url }
      : { mode: 'url', message, url, elicitationId };
  const result = await ask(asker, scope, 'elicitation/create', params, options);
  const action =
    result?.action === 'accept' || result?.action === 'decline' ? result.action : 'cancel';
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

export async function sample(
  asker: Asker,
  scope: Scope,
  request: SampleRequest,
  options: ClientRequestOptions = {},
): Promise<SampleResult> {
  const { record } = asker;
  requireCapability(record, ['sampling'], 'ctx.sample');
  const params =
    typeof request === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: request } }], maxTokens: 1000 }
      : { maxTokens: 1000, ...request };
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    requireRevision(
      record,
      featuresOf(record.protocolVersion).samplingTools,
      'ctx.sample with tools',
      '2025-11-25',
    );
    requireCapability(record, ['sampling', 'tools'], 'ctx.sample with tools');
  }
  return ask(asker, scope, 'sampling/createMessage', params, options) as Promise<SampleResult>;
}

export async function listRoots(
  asker: Asker,
  scope: Scope,
  options: ClientRequestOptions = {},
): Promise<{ uri: string; name?: string }[]> {
  requireCapability(asker.record, ['roots'], 'ctx.roots');
  const result = await ask(asker, scope, 'roots/list', {}, options);
  return Array.isArray(result?.roots) ? result.roots : [];
}
