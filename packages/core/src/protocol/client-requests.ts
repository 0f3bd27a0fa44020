import { compileElicitation, InvalidArgumentsError } from '../registry/index.js';
import { requireCapability, requireRevision } from './client-capability.js';
import type { RequestRecord } from './request-record.js';
import type { SampleResult } from './sample-result.js';
import type { Scope } from './server-core.js';

/** Options of server→client requests made from a handler. */
export interface ClientRequestOptions {
  /** How long to wait for the client's answer (default: the server's `clientRequestTimeoutMs`). */
  timeoutMs?: number;
  /**
   * When questions are input rounds, the key of this question in `inputRequests` (default
   * `input_<n>`, from the order of the questions). Keys must be the same on every run of the
   * handler.
   */
  key?: string;
  /**
   * 2026-07-28: take an answer the client sent with the call itself, before the question was
   * asked (`inputResponses` without a `requestState`). Off by default: such answers are
   * ignored and the question is asked, since nothing proves it ever reached the user. Turn it
   * on only for a question whose answer the client could as well have put in the arguments (a
   * name, a preference), never for a confirmation or a consent.
   *
   * @example
   * ```ts
   * await ctx.elicit('What is your name?', z.object({ name: z.string() }), { key: 'user_name', acceptUnasked: true });
   * ```
   */
  acceptUnasked?: boolean;
}

/**
 * What a question needs of the call's input run: `InputRun` implements it, in the layer above
 * the era contract that passes questions on.
 */
export interface QuestionRun {
  /** Whether the call went on as a task (its questions then go through the task). */
  readonly detached: boolean;
  /**
   * The answer, now or after a round trip; `key` names the question in `inputRequests`;
   * `unasked` lets the first round take an answer sent without a `requestState`.
   */
  ask(method: string, params: unknown, key?: string, unasked?: boolean): Promise<unknown>;
}

/** Where a question goes: the live channel, or the call's input run (see `Era.asksInRounds`). */
export interface Asker {
  readonly record: RequestRecord;
  readonly run?: QuestionRun;
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
 * Asks the client through the request's era (a live request, or a question of an input round),
 * with what middleware adds to every outgoing request's `_meta` (e.g. trace context).
 */
function ask(
  asker: Asker,
  scope: Scope,
  method: string,
  params: unknown,
  options: ClientRequestOptions,
): Promise<ClientAnswer> {
  if (asker.meta) params = withMeta(params, asker.meta);
  return asker.record.era.ask(asker, scope, method, params, options) as Promise<ClientAnswer>;
}

/**
 * A client's answer as it came off the wire: a JSON-RPC result is an object, but nothing in it
 * is trusted, so each member is read as `unknown` and checked where it is used.
 */
type ClientAnswer = { readonly [member: string]: unknown } | null | undefined;

export async function elicitForm<T>(
  asker: Asker,
  scope: Scope,
  message: string,
  schema: object,
  options: ClientRequestOptions = {},
): Promise<ElicitResult<T>> {
  const { record } = asker;
  requireRevision(record, 'elicitation', 'ctx.elicit');
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
  requireRevision(record, 'urlElicitation', 'ctx.elicitUrl');
  requireCapability(record, ['elicitation', 'url'], 'ctx.elicitUrl');
  const elicitationId = crypto.randomUUID();
  const params = record.era.urlElicitationIds
    ? { mode: 'url', message, url, elicitationId }
    : { mode: 'url', message, url };
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
    requireRevision(record, 'samplingTools', 'ctx.sample with tools');
    requireCapability(record, ['sampling', 'tools'], 'ctx.sample with tools');
  }
  // Handed to the handler as the client sent it: the sampling result is not checked here.
  const result = await ask(asker, scope, 'sampling/createMessage', params, options);
  return result as unknown as SampleResult;
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
