// Base64 with the web-standard atob/btoa rather than Node's Buffer, so the root entry runs
// unchanged on every runtime.

// String.fromCharCode takes its bytes as arguments, and engines bound how many one call may take.
const CHUNK = 0x8000;

/** Standard base64 of `bytes` (resource blobs, image and audio data). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** URL-safe base64 without padding of an ASCII string. */
export function base64UrlOf(ascii: string): string {
  return btoa(ascii).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The ASCII string behind URL-safe base64, or undefined when `text` is not such base64. */
export function fromBase64Url(text: string): string | undefined {
  try {
    return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
}
