import { JsonRpcError, type WireError } from '../../../jsonrpc/index.js';
import { quoteClientValue, showClientValue } from '../../client-value.js';
import { ErrorCode } from '../../error-codes.js';
import type { PreflightTool } from '../../request-record.js';
import { handOn } from './admission.js';
import { checkVersion, readEnvelope } from './envelope.js';

/** Where the HTTP checks find a tool's input schema (a server's registry, or a relay's copy). */
export interface ToolLookup {
  /** The tool of that name, with its input schema; `undefined` when there is none. */
  tool(name: string): { readonly inputSchema: Record<string, unknown> } | undefined;
}

/** A modern HTTP request refused before dispatch: the JSON-RPC error and its HTTP status. */
export interface Refusal {
  readonly error: WireError;
  readonly status: number;
}

type Header = (name: string) => string | undefined;

const NAMED: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  // The tasks extension routes its methods by task (Mcp-Name: <taskId>).
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

function mismatch(header: string | undefined, body: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.HeaderMismatch,
    `Bad Request: the request headers and body disagree: ${body}`,
    {
      mismatch: { header: header ?? '(missing)', body },
    },
  );
}

/**
 * The checks a 2026-07-28 request over HTTP passes before dispatch, in the order SDK 2.4.0
 * applies them (protocol.md §3.3): envelope shape (-32602), version and method headers against
 * the body (-32020), supported version (-32022), required headers (-32020), then `Mcp-Param-*`
 * for `x-mcp-header` arguments (-32020). All of them answer 400. The envelope read here is handed
 * on to the request's record, so it is read once.
 */
export function modernPreflight(
  message: Record<string, unknown>,
  header: Header,
  registry: ToolLookup,
): Refusal | undefined {
  try {
    ladder(message, header, registry);
    return undefined;
  } catch (error) {
    if (error instanceof JsonRpcError) return { error: error.toJSON(), status: 400 };
    throw error;
  }
}

function ladder(message: Record<string, unknown>, header: Header, registry: ToolLookup): void {
  const params = message.params as Record<string, unknown> | undefined;
  const method = message.method;
  const envelope = readEnvelope(params);
  const versionHeader = header('mcp-protocol-version')?.trim();
  const methodHeader = header('mcp-method')?.trim();
  if (versionHeader !== undefined && versionHeader !== envelope.protocolVersion) {
    throw mismatch(
      versionHeader,
      `the body envelope names protocol version ${envelope.protocolVersion} but the MCP-Protocol-Version header names ${versionHeader}`,
    );
  }
  if (methodHeader !== undefined && methodHeader !== method) {
    throw mismatch(
      methodHeader,
      `the body names method ${showClientValue(method)} but the Mcp-Method header names ${methodHeader}`,
    );
  }
  checkVersion(envelope.protocolVersion);
  if (versionHeader === undefined) {
    throw mismatch(
      undefined,
      `the body envelope names protocol version ${envelope.protocolVersion} but the required MCP-Protocol-Version header is absent`,
    );
  }
  if (methodHeader === undefined)
    throw mismatch(
      undefined,
      `the body names method ${showClientValue(method)} but the required Mcp-Method header is absent`,
    );
  // Equal to the Mcp-Method header by now, so a string.
  const field = NAMED[method as string];
  if (field) {
    const value = params?.[field];
    const nameHeader = header('mcp-name');
    const decoded = nameHeader === undefined ? undefined : decodeHeaderValue(nameHeader.trim());
    if (typeof value === 'string' && decoded !== value) {
      throw mismatch(
        nameHeader,
        nameHeader === undefined
          ? `the body carries params.${field}=${quoteClientValue(value)} but the required Mcp-Name header is absent`
          : `the body carries params.${field}=${quoteClientValue(value)} but the Mcp-Name header names ${nameHeader}`,
      );
    }
  }
  const tool =
    method === 'tools/call' && typeof params?.name === 'string'
      ? checkParamHeaders(params, header, registry)
      : undefined;
  // readEnvelope found `_meta` in them, so the params are an object.
  handOn(params as object, envelope, tool);
}

/**
 * Arguments whose schema carries `x-mcp-header: Name` must be mirrored in `Mcp-Param-Name`.
 * Returns the tool it looked up, handed on so dispatch does not look it up again.
 */
function checkParamHeaders(
  params: Record<string, unknown>,
  header: Header,
  registry: ToolLookup,
): PreflightTool {
  const toolName = params.name as string;
  const tool = registry.tool(toolName);
  const mirrored = tool ? mirroredArguments(tool.inputSchema) : NONE_MIRRORED;
  if (mirrored.length === 0) return { lookup: registry, name: toolName, tool };
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  for (const { arg, name, headerName } of mirrored) {
    if (args[arg] === undefined) continue;
    const raw = header(headerName);
    const value = raw === undefined ? undefined : decodeHeaderValue(raw.trim());
    // A header mirrors a primitive; an object or array (whose String() could recurse without
    // end) never matches one.
    const sent = args[arg];
    if ((typeof sent === 'object' && sent !== null) || value !== String(sent)) {
      throw mismatch(
        raw,
        `argument ${arg} is ${quoteClientValue(args[arg])} but the Mcp-Param-${name} header ${raw === undefined ? 'is absent' : `says ${raw}`}`,
      );
    }
  }
  return { lookup: registry, name: toolName, tool };
}

interface MirroredArgument {
  readonly arg: string;
  /** The `x-mcp-header` value as the schema spells it (for the message). */
  readonly name: string;
  /** The request header it travels in, lower case. */
  readonly headerName: string;
}

const NONE_MIRRORED: readonly MirroredArgument[] = [];

/**
 * The arguments of each input schema that carry `x-mcp-header`, in the schema's order. Read once
 * per schema object rather than with `Object.entries` on every call: a tool's schema is fixed
 * (the registry deep-freezes it; a changed tool is a new schema object, so a new entry here).
 */
const mirroredOf = new WeakMap<object, readonly MirroredArgument[]>();

function mirroredArguments(inputSchema: Record<string, unknown>): readonly MirroredArgument[] {
  let mirrored = mirroredOf.get(inputSchema);
  if (mirrored === undefined) {
    const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const found: MirroredArgument[] = [];
    for (const [arg, schema] of Object.entries(properties)) {
      const name = schema?.['x-mcp-header'];
      if (typeof name === 'string')
        found.push({ arg, name, headerName: `mcp-param-${name.toLowerCase()}` });
    }
    mirrored = found.length === 0 ? NONE_MIRRORED : found;
    mirroredOf.set(inputSchema, mirrored);
  }
  return mirrored;
}

const WRAPPED = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Header values outside visible ASCII travel as `=?base64?…?=`, which must then be valid Base64
 * (undefined when not). Anything not wrapped at both ends, such as `=?base64?SGk=` without the
 * closing `?=`, is taken literally (SEP-2243).
 */
export function decodeHeaderValue(value: string): string | undefined {
  // Not wrapped (nearly every value): no regular expression run.
  if (value.charCodeAt(0) !== 61 /* = */) return value;
  const wrapped = WRAPPED.exec(value);
  if (!wrapped) return value;
  const encoded = wrapped[1];
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return undefined;
  // atob and TextDecoder rather than Buffer: the same in every runtime.
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return UTF8.decode(bytes);
}

/** The `Retry-After` (seconds) of a modern error answer refused at a cap, if any. */
export function modernRetryAfter(error: { code: number; data?: unknown }): number | undefined {
  if (error.code !== ErrorCode.LimitReached) return undefined;
  const seconds = (error.data as { retryAfterS?: unknown } | undefined)?.retryAfterS;
  return typeof seconds === 'number' ? seconds : undefined;
}

/**
 * The HTTP status of a modern error answer (protocol.md §6.1); in-band errors stay 200. A cap on
 * client-made state says its own (429 for the client's share, 503 for the server's).
 */
export function modernErrorStatus(error: { code: number; data?: unknown }): number {
  switch (error.code) {
    case ErrorCode.LimitReached: {
      const status = (error.data as { status?: unknown } | undefined)?.status;
      return status === 429 || status === 503 ? status : 200;
    }
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.InvalidParams:
      return typeof error.data === 'object' && error.data !== null && 'envelope' in error.data
        ? 400
        : 200;
    default:
      return 200;
  }
}
