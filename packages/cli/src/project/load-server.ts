import { pathToFileURL } from 'node:url';
import type { McpFwServer } from '@mcp-fw/core';

/** Thrown when a module cannot be loaded or exports no server; the message names the cause. */
export class LoadError extends Error {
  override name = 'LoadError';
}

/**
 * Imports a compiled entry module and returns its server: the `server` export, else the default
 * export. Either may be the server, a promise of one, or a factory that takes no arguments
 * (parameters with defaults are fine) and returns or resolves to one.
 */
export async function loadServer(
  file: string,
  shownAs = file,
  userDir?: string,
): Promise<McpFwServer> {
  // Stack frames then name the TypeScript sources, not the compiled copies.
  process.setSourceMapsEnabled(true);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new LoadError(`${shownAs} failed to load: ${summary(error, userDir)}`);
  }
  const exportName = mod.server !== undefined ? 'server' : 'default';
  const exported = await mod[exportName];
  if (isServer(exported)) return exported;
  if (typeof exported === 'function' && !isClass(exported as () => unknown))
    return fromFactory(exported as () => unknown, `${shownAs}'s ${exportName} export`, userDir);
  const names = Object.keys(mod);
  const found = names.length ? `it exports ${names.join(', ')}` : 'it exports nothing';
  throw new LoadError(
    `${shownAs} exports no MCP server (${found}): export it as \`server\` (export const server = createServer(...)) or as the default export, ` +
      'either the server or a function without parameters that returns it',
  );
}

/** Calls a factory export; one that needs arguments is refused before it runs. */
async function fromFactory(
  factory: (...args: never[]) => unknown,
  shownAs: string,
  userDir: string | undefined,
): Promise<McpFwServer> {
  const name = factory.name ? ` ${factory.name}` : '';
  if (factory.length > 0) {
    throw new LoadError(
      `${shownAs} is a function${name} that takes ${factory.length} argument${factory.length === 1 ? '' : 's'}, which mcp-fw cannot supply: ` +
        'give its parameters defaults, or export a function without parameters that calls it',
    );
  }
  let made: unknown;
  try {
    made = await (factory as () => unknown)();
  } catch (error) {
    throw new LoadError(`${shownAs} (the function${name}) failed: ${summary(error, userDir)}`);
  }
  if (!isServer(made))
    throw new LoadError(
      `${shownAs} (the function${name}) returned no MCP server: return the server createServer(...) made`,
    );
  return made;
}

function isClass(value: (...args: never[]) => unknown): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function isServer(value: unknown): value is McpFwServer {
  const candidate = value as { connect?: unknown; registry?: unknown } | null | undefined;
  return (
    typeof candidate?.connect === 'function' &&
    typeof candidate.registry === 'object' &&
    candidate.registry !== null
  );
}

/** The error's name and message, plus the first stack frame in the user's code (under `userDir`). */
function summary(error: unknown, userDir: string | undefined): string {
  if (!(error instanceof Error)) return String(error);
  const head = `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  if (!userDir) return head;
  const frame = error.stack
    ?.split('\n')
    .find(
      (line) => /^\s+at /.test(line) && line.includes(userDir) && !line.includes('/node_modules/'),
    );
  return frame ? `${head} (${frame.trim()})` : head;
}
