// New task ids.
/**
 * A task id a third party cannot guess (the extension lets servers treat ids as bearer tokens):
 * 128 random bits, base64url. Web Crypto, so the root entry stays runtime-neutral.
 */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
