import { Resource, type ResourceEntry } from '@mcp-fw/core';
import { uriOf, type FileTree } from './file-tree.js';
import { DIRECTORY_MIME_TYPE, mimeTypeOf } from './mime.js';
import { readEntry } from './read-entry.js';

/** The URI template every file and subdirectory is read through. */
export const FILE_TEMPLATE = 'file:///{+path}';

/**
 * The resources of one served directory: the root's listing at `file:///`, and every file and
 * subdirectory below it through the template `file:///{+path}`. The class is built per tree
 * because the template's `list` and `complete` options are plain functions, closed over it.
 *
 * @example
 * ```ts
 * const tree = await FileTree.open('/srv/docs');
 * createServer({ name: 'files', version: '1.0.0', providers: [fileResources(tree)] });
 * ```
 */
export function fileResources(tree: FileTree): object {
  class FileResources {
    @Resource('file:///', {
      name: 'root',
      title: 'Served directory',
      description:
        'The listing of the served directory, followed by the contents of its small files',
      mimeType: DIRECTORY_MIME_TYPE,
    })
    root() {
      return readEntry(tree, '');
    }

    @Resource(FILE_TEMPLATE, {
      name: 'file',
      title: 'File or directory',
      description:
        'A file below the served directory, by its relative path (a directory reads as its listing)',
      list: async (): Promise<ResourceEntry[]> =>
        (await tree.files()).map((f) => {
          const mimeType = mimeTypeOf(f.path);
          return {
            uri: uriOf(f.path),
            name: f.path,
            ...(mimeType ? { mimeType } : {}),
            size: f.size,
          };
        }),
      complete: { path: (prefix) => tree.complete(prefix) },
    })
    file({ path }: { path: string }) {
      return readEntry(tree, path);
    }
  }
  return new FileResources();
}
