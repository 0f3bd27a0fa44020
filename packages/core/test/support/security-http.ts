import type { McpFwServer } from '@mcp-fw/core';
import {
  nodeSurface,
  initializeBody,
  JSON_AND_SSE,
  type RawResponse,
  type Surface,
} from './http-surfaces.ts';
import type { HttpEndpointOptions } from '@mcp-fw/core/http';

/** Raw-HTTP helpers for the attack tests: a real `serveHttp` server on 127.0.0.1, port 0. */
export const MODERN = '2026-07-28';

export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'attack', version: '1' },
    ...extra,
  };
}

export function modernHeaders(
  method: string,
  name?: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const h: Record<string, string> = {
    ...JSON_AND_SSE,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...extra,
  };
  if (name !== undefined) h['mcp-name'] = name;
  return h;
}

/** POSTs one 2026-07-28 message with the headers it needs. */
export function modernPost(
  s: Surface,
  message: Record<string, unknown>,
  extra: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<RawResponse> {
  const params = (message.params ?? {}) as Record<string, unknown>;
  const method = message.method as string;
  const name =
    method === 'tools/call' || method === 'prompts/get'
      ? (params.name as string)
      : method === 'resources/read'
        ? (params.uri as string)
        : undefined;
  return s.send({
    method: 'POST',
    path: '/mcp',
    headers: modernHeaders(method, name, extra),
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    signal,
  });
}

/** Opens a legacy Streamable HTTP session; returns its id. */
export async function openSession(
  s: Surface,
  headers: Record<string, string> = {},
): Promise<RawResponse & { session?: string }> {
  const res = await s.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, ...headers },
    body: initializeBody(),
  });
  const session = res.header('mcp-session-id');
  await res.text();
  if (session !== undefined) {
    const done = await s.send({
      method: 'POST',
      path: '/mcp',
      headers: { ...JSON_AND_SSE, ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await done.text();
  }
  return Object.assign(res, { session });
}

/** POSTs a legacy message into a session. */
export function sessionPost(
  s: Surface,
  session: string,
  message: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return s.send({
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': session, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

export function serve(server: McpFwServer, options: HttpEndpointOptions = {}): Promise<Surface> {
  return nodeSurface(server, options);
}

export async function until(check: () => boolean, ms = 2000): Promise<void> {
  for (let waited = 0; !check() && waited < ms; waited += 5)
    await new Promise((r) => setTimeout(r, 5));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
