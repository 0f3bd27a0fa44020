import type { MiddlewareContext } from '@mcp-fw/core';

/** Attribute names of the OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md). */
export const ATTR = {
  methodName: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  transport: 'network.transport',
  protocolName: 'network.protocol.name',
  clientAddress: 'client.address',
} as const;

/** `mcp.server.operation.duration`: seconds, with the buckets the conventions advise. */
export const OPERATION_DURATION = {
  name: 'mcp.server.operation.duration',
  unit: 's',
  description:
    'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
  buckets: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
} as const;

type Attributes = Record<string, string>;

/** The low-cardinality target of the span name: the tool's or prompt's name. */
export function targetOf(ctx: MiddlewareContext): string | undefined {
  const { method, params } = ctx;
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  const name = ctx.member?.name ?? params?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The attributes both the span and the duration metric carry. */
export function commonAttributes(ctx: MiddlewareContext, target: string | undefined): Attributes {
  return fillCommon({}, ctx, target);
}

function fillCommon(
  attributes: Attributes,
  ctx: MiddlewareContext,
  target: string | undefined,
): Attributes {
  attributes[ATTR.methodName] = ctx.method;
  if (ctx.method === 'tools/call') {
    attributes[ATTR.operationName] = 'execute_tool';
    if (target !== undefined) attributes[ATTR.toolName] = target;
  } else if (ctx.method === 'prompts/get' && target !== undefined) {
    attributes[ATTR.promptName] = target;
  }
  const version = ctx.protocolVersion;
  if (version !== undefined) attributes[ATTR.protocolVersion] = version;
  if (ctx.transport === 'http') {
    attributes[ATTR.transport] = 'tcp';
    attributes[ATTR.protocolName] = 'http';
  } else {
    attributes[ATTR.transport] = 'pipe';
  }
  return attributes;
}

/** What only the span carries: ids and addresses (high cardinality for a metric). */
export function spanAttributes(ctx: MiddlewareContext, target: string | undefined): Attributes {
  // Built afresh rather than copied from the metric's: a spread copy costs more per request.
  const attributes = fillCommon({}, ctx, target);
  const id = ctx.requestId;
  if (id !== undefined) attributes[ATTR.requestId] = String(id);
  const session = ctx.sessionId;
  if (session !== undefined) attributes[ATTR.sessionId] = session;
  const uri = ctx.params?.uri;
  if (typeof uri === 'string' && ctx.method.startsWith('resources/'))
    attributes[ATTR.resourceUri] = uri;
  const address = ctx.remoteAddress;
  if (address !== undefined) attributes[ATTR.clientAddress] = address;
  return attributes;
}

/**
 * `error.type` of a failure: the JSON-RPC code when the error carries one; `tool_error` for a
 * tool call answered with `isError` (what a tool or its guardrails throw becomes that result);
 * otherwise the error's class name (`_OTHER` for a plain `Error`).
 */
export function errorTypeOf(ctx: MiddlewareContext, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return String(code);
  const name = (error as { name?: unknown } | null)?.name;
  if (ctx.method === 'tools/call') {
    // Invalid arguments are an isError result from 2025-11-25 on, -32602 before.
    if (name !== 'InvalidArgumentsError') return 'tool_error';
    return (ctx.protocolVersion ?? '') >= '2025-11-25' ? 'tool_error' : '-32602';
  }
  return typeof name === 'string' && name !== 'Error' ? name : '_OTHER';
}
