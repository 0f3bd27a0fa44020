import { ENVELOPE_META } from '@mcp-fw/core/transport';
import type { Peeked } from './transport.js';

/** Methods whose `Mcp-Name` header mirrors a param (2026-07-28 Streamable HTTP). */
const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension routes its methods by task.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The 2026-07-28 request headers of a message carrying the envelope, or undefined (legacy). */
export function modernHeaders(message: Peeked): Record<string, string> | undefined {
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[ENVELOPE_META.protocolVersion];
  if (typeof version !== 'string' || !message.method) return undefined;
  const headers: Record<string, string> = {
    'mcp-protocol-version': version,
    'mcp-method': message.method,
  };
  const key = NAME_PARAM[message.method];
  const name = key === undefined ? undefined : message.params?.[key];
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

/**
 * A header value as 2026-07-28 carries it: as is when it is visible ASCII (spaces inside
 * allowed) with no surrounding whitespace, otherwise `=?base64?…?=` of its UTF-8.
 */
export function headerValue(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) || value === '') return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
