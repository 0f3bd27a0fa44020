import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, JsonRpcError, UserError, type ResourceContents } from '@mcp-fw/core';
import { compare, uriOf, ROOT_URI, type FileTree } from './file-tree.js';
import { asText, DIRECTORY_MIME_TYPE, isTextType, mimeTypeOf } from './mime.js';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
// A directory read inlines its small files; bigger ones are only named in the listing.
const MAX_INLINED_FILES = 100;
const MAX_INLINED_BYTES = 1024 * 1024;

/**
 * Reads the file or directory at `path` (relative to the root; `''` is the root). A malformed
 * path is -32602; a path that does not exist, escapes the root through a symlink or names
 * something that is neither a file nor a directory is not found (undefined).
 */
export async function readEntry(
  tree: FileTree,
  path: string,
): Promise<ResourceContents[] | undefined> {
  const resolution =
    path === '' ? { kind: 'inside' as const, realPath: tree.root } : await tree.resolve(path);
  if (resolution.kind === 'invalid') {
    throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${resolution.reason}`, {
      path,
    });
  }
  if (resolution.kind === 'missing') return undefined;
  const info = await stat(resolution.realPath);
  const uri = path === '' ? ROOT_URI : uriOf(path.replace(/\/$/, ''));
  if (info.isDirectory()) return readDirectory(resolution.realPath, path.replace(/\/$/, ''), uri);
  if (!info.isFile()) return undefined;
  if (info.size > MAX_FILE_BYTES)
    throw new UserError(`${path} is larger than ${MAX_FILE_BYTES} bytes; not read.`);
  return [fileContents(uri, path, await readFile(resolution.realPath))];
}

/** One file as resource contents: text when its type (or, failing that, its bytes) say so. */
function fileContents(uri: string, name: string, bytes: Buffer): ResourceContents {
  const known = mimeTypeOf(name);
  const text = known === undefined || isTextType(known) ? asText(bytes) : undefined;
  if (text !== undefined) return { uri, mimeType: known ?? 'text/plain', text };
  return { uri, mimeType: known ?? 'application/octet-stream', blob: bytes.toString('base64') };
}

/**
 * A directory-like read: first the directory's listing (one name a line, subdirectories with a
 * trailing `/`), then the contents of its small files, each under its own URI. Symlinks are
 * left out, as in `resources/list`.
 */
async function readDirectory(
  realPath: string,
  path: string,
  uri: string,
): Promise<ResourceContents[]> {
  const entries = (await readdir(realPath, { withFileTypes: true }))
    .filter((e) => e.isFile() || e.isDirectory())
    .sort((a, b) => compare(a.name, b.name));
  const listing = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).join('\n');
  const contents: ResourceContents[] = [{ uri, mimeType: DIRECTORY_MIME_TYPE, text: listing }];
  for (const entry of entries.filter((e) => e.isFile()).slice(0, MAX_INLINED_FILES)) {
    const childPath = path ? `${path}/${entry.name}` : entry.name;
    const file = join(realPath, entry.name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_INLINED_BYTES) continue;
    const bytes = await readFile(file).catch(() => undefined);
    if (bytes) contents.push(fileContents(uriOf(childPath), entry.name, bytes));
  }
  return contents;
}
