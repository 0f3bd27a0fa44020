import { pathToFileURL } from 'node:url';
import type { McpServer } from '@mcp-fw/core';

/** Thrown when a module cannot be loaded or exports no server; the message names the cause. */
export class LoadError extends Error {
  override name = 'LoadError';
}

/**
 * Imports a compiled entry module and returns its server: the `server` export, else the default
 * export (a server or a promise of one).
 */
export async function loadServer(file: string, shownAs = file): Promise<McpServer> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new LoadError(`${shownAs} failed to load: ${summary(error)}`);
  }
  const exported = await (mod.server ?? mod.default);
  if (!isServer(exported)) {
    throw new LoadError(
      `${shownAs} exports no MCP server: export it as \`server\` (export const server = createServer(...)) or as the default export`,
    );
  }
  return exported;
}

function isServer(value: unknown): value is McpServer {
  const candidate = value as { connect?: unknown; registry?: unknown } | null | undefined;
  return typeof candidate?.connect === 'function' && typeof candidate.registry === 'object' && candidate.registry !== null;
}

/** The error's name and message, plus the first stack frame that points into the user's code. */
function summary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const head = `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  const frame = error.stack?.split('\n').find((line) => /^\s+at /.test(line) && !line.includes('node:') && !line.includes('node_modules'));
  return frame ? `${head} (${frame.trim().replace(/^at /, 'at ')})` : head;
}
