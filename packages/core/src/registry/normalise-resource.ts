import { base64Of } from './base64.js';
import type { ResourceContents } from './content.js';

/**
 * Turns what a resource handler returned into `contents`: a string is text, bytes are a base64
 * blob, contents objects pass through (their `uri` defaulting to the one read), arrays are
 * several contents (directory-like reads), anything else is JSON text.
 */
export function normaliseResource(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ResourceContents[] {
  if (Array.isArray(value)) return value.flatMap((v) => normaliseResource(v, uri, mimeType));
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
  if (value instanceof Uint8Array) {
    const blob = base64Of(value);
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob }];
  }
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.contents)) return normaliseResource(v.contents, uri, mimeType);
    if (typeof v.text === 'string' || typeof v.blob === 'string') {
      const contents = { ...v, uri: typeof v.uri === 'string' ? v.uri : uri } as ResourceContents;
      if (contents.mimeType === undefined && mimeType !== undefined) contents.mimeType = mimeType;
      return [contents];
    }
  }
  return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) }];
}
