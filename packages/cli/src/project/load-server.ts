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
export async function loadServer(file: string, shownAs = file, userDir?: string): Promise<McpServer> {
  // Stack frames then name the TypeScript sources, not the compiled copies.
  process.setSourceMapsEnabled(true);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new LoadError(`${shownAs} failed to load: ${summary(error, userDir)}`);
  }
  const exported = await (mod.server ?? mod.default);
  if (!isServer(exported)) {
    const names = Object.keys(mod);
    const found = names.length ? `it exports ${names.join(', ')}` : 'it exports nothing';
    throw new LoadError(
      `${shownAs} exports no MCP server (${found}): export it as \`server\` (export const server = createServer(...)) or as the default export`,
    );
  }
  return exported;
}

function isServer(value: unknown): value is McpServer {
  const candidate = value as { connect?: unknown; registry?: unknown } | null | undefined;
  return typeof candidate?.connect === 'function' && typeof candidate.registry === 'object' && candidate.registry !== null;
}

/** The error's name and message, plus the first stack frame in the user's code (under `userDir`). */
function summary(error: unknown, userDir: string | undefined): string {
  if (!(error instanceof Error)) return String(error);
  const head = `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  if (!userDir) return head;
  const frame = error.stack
    ?.split('\n')
    .find((line) => /^\s+at /.test(line) && line.includes(userDir) && !line.includes('/node_modules/'));
  return frame ? `${head} (${frame.trim()})` : head;
}
