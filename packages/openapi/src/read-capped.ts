import { UpstreamError } from './upstream-error.js';

/** Reads a response body, refusing (before or while reading) one over `max` bytes. */
export async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw tooBig(max);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooBig(max);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function tooBig(max: number): UpstreamError {
  return new UpstreamError(
    `the API's answer is over maxResponseBytes (${max} bytes); not read. Fix: ask for less (filters, paging) or raise maxResponseBytes.`,
  );
}
