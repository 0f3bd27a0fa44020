import { extname } from 'node:path';

/** The MIME type served for directories (the freedesktop.org convention). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
};

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/toml',
  'image/svg+xml',
]);

/** The MIME type of a file name, from its extension; undefined when the extension is unknown. */
export function mimeTypeOf(name: string): string | undefined {
  return BY_EXTENSION[extname(name).toLowerCase()];
}

/** Whether contents of this MIME type are sent as `text` (anything else is a base64 `blob`). */
export function isTextType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_APPLICATION_TYPES.has(mimeType);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8 without NUL bytes, else undefined (binary). */
export function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
