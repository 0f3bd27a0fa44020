import { createServer, type McpFwServer } from '@mcp-fw/core';
import { fileResources } from './file-resources.js';
import type { FileTree } from './file-tree.js';

/** A read-only file server for one directory tree. */
export function createFilesServer(tree: FileTree): McpFwServer {
  return createServer({
    name: 'files',
    version: '0.1.0',
    instructions:
      'Serves one directory read-only. List resources to see its files, read file:///<relative path> ' +
      'for a file, or file:/// and file:///<folder> for a listing. Subscribe to a file to hear when it changes.',
    providers: [fileResources(tree)],
  });
}
