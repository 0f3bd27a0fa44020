import type { ArgPlacement } from './input.js';

/** One body argument and its value, as the tool was called. */
export interface BodyField {
  readonly placement: ArgPlacement;
  readonly value: unknown;
}

/** A request body ready for fetch; `contentType` absent when fetch sets it (multipart's boundary). */
export interface EncodedBody {
  readonly payload: string | Uint8Array | FormData;
  readonly contentType?: string;
}

/** A body argument that cannot be encoded (a file that is not base64): the message is for the client. */
export class BodyError extends Error {
  override name = 'BodyError';
}

/**
 * Encodes the request body of one call in the operation's media type: JSON; a form
 * (`application/x-www-form-urlencoded`, arrays as repeated keys); `multipart/form-data` (files
 * decoded from base64 into parts of their media type, other values as text parts); a file body
 * (base64 decoded to bytes); anything else as text.
 */
export function encodeBody(
  bodyType: string,
  fields: readonly BodyField[],
  whole: BodyField | undefined,
): EncodedBody {
  if (whole?.placement.file) {
    return { payload: decodeBase64(whole), contentType: bodyType };
  }
  if (bodyType.includes('json')) {
    const value = whole ? whole.value : objectOf(fields);
    return { payload: JSON.stringify(value), contentType: bodyType };
  }
  if (whole) return { payload: text(whole.value), contentType: bodyType };
  if (bodyType === 'multipart/form-data') {
    const form = new FormData();
    for (const field of fields) {
      const { placement, value } = field;
      // An array is one part per item (several files under one name, or repeated fields).
      for (const item of Array.isArray(value) ? value : [value]) {
        if (placement.file) {
          const bytes = decodeBase64({ placement, value: item });
          form.append(
            placement.name,
            new Blob([bytes as Uint8Array<ArrayBuffer>], { type: placement.file.contentType }),
            placement.name,
          );
        } else form.append(placement.name, text(item));
      }
    }
    return { payload: form };
  }
  // application/x-www-form-urlencoded, and any other form-like type we fold.
  const params = new URLSearchParams();
  for (const { placement, value } of fields) {
    if (Array.isArray(value)) for (const v of value) params.append(placement.name, text(v));
    else params.append(placement.name, text(value));
  }
  return { payload: params.toString(), contentType: bodyType };
}

function objectOf(fields: readonly BodyField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.placement.name, f.value]));
}

function text(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function decodeBase64({ placement, value }: BodyField): Uint8Array {
  try {
    if (typeof value !== 'string') throw new Error('not a string');
    const binary = atob(value.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw new BodyError(
      `argument "${placement.arg}" is a file and must be its bytes base64-encoded (e.g. "aGVsbG8=" for "hello"). Fix: base64-encode the file's contents.`,
    );
  }
}
