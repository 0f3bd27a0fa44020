import type { CallToolResult } from '../../registry/index.js';
import { describeCall, type GuardedCall } from './call.js';
import { sanitiseToolResult, type ControlChars } from './sanitise.js';
import { LimitError } from './limit-error.js';

/**
 * What leaves a handler: tool text is cleaned of control characters, and a result whose text
 * and blobs exceed `maxBytes` becomes an error instead of a giant frame.
 */
export class OutputPolicy {
  constructor(
    private readonly maxBytes: number,
    private readonly controlChars: ControlChars,
  ) {}

  apply(call: GuardedCall, value: unknown): unknown {
    const result =
      call.kind === 'tool' && this.controlChars !== 'keep'
        ? sanitiseToolResult(value as CallToolResult, this.controlChars)
        : value;
    if (this.maxBytes > 0) {
      const size = payloadBytes(result, this.maxBytes);
      if (size > this.maxBytes) {
        throw new LimitError(
          'maxResultBytes',
          `${describeCall(call)} produced ${size} bytes of content, more than the limit of ${this.maxBytes} bytes (maxResultBytes). Return less, or link to a resource instead.`,
        );
      }
    }
    return result;
  }
}

/**
 * Bytes of text (UTF-8) and blobs (base64) in a tool result, resource contents or prompt. Exact
 * only when it might matter: while three bytes per character stay under the limit, that upper
 * bound is returned without encoding anything (and without allocating).
 */
export function payloadBytes(result: unknown, limit: number): number {
  const upper = measure(result, false);
  return upper <= limit ? upper : measure(result, true);
}

type Size = (s: unknown) => number;

const upperBound: Size = (s) => (typeof s === 'string' ? s.length * 3 : 0);
const exactSize: Size = (s) => (typeof s === 'string' ? utf8Length(s) : 0);
const blobSize: Size = (s) => (typeof s === 'string' ? s.length : 0);

function measure(result: unknown, exact: boolean): number {
  const text = exact ? exactSize : upperBound;
  let bytes = 0;
  if (Array.isArray(result)) {
    // resources/read contents
    for (const item of result) bytes += contentsSize(item, text);
    return bytes;
  }
  const r = result as { content?: unknown; messages?: unknown } | null | undefined;
  if (Array.isArray(r?.content)) for (const block of r.content) bytes += blockSize(block, text);
  if (Array.isArray(r?.messages))
    for (const message of r.messages)
      bytes += blockSize((message as { content?: unknown })?.content, text);
  return bytes;
}

function blockSize(block: unknown, text: Size): number {
  const b = block as { text?: unknown; data?: unknown; resource?: unknown } | null | undefined;
  if (!b) return 0;
  return text(b.text) + blobSize(b.data) + (b.resource ? contentsSize(b.resource, text) : 0);
}

function contentsSize(contents: unknown, text: Size): number {
  const c = contents as { text?: unknown; blob?: unknown } | null | undefined;
  return c ? text(c.text) + blobSize(c.blob) : 0;
}

function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length) {
      // A surrogate pair: 2 UTF-16 units, 4 bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
