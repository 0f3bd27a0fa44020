// stdio by default; `--http --port N` serves http://127.0.0.1:N/mcp.
import { serveFromArgs } from '@mcp-fw/core/serve';
import { FileTree } from './file-tree.js';
import { rootDirFromArgs } from './root-dir.js';
import { createFilesServer } from './server.js';
import { watchTree } from './watch-tree.js';

let tree: FileTree;
try {
  tree = await FileTree.open(rootDirFromArgs(process.argv.slice(2)));
} catch (error) {
  const usage = 'usage: files [directory] [--http [--port N] [--host H]]';
  process.stderr.write(`files: ${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
const server = createFilesServer(tree);
await watchTree(tree, server.resources);
await serveFromArgs(server);
