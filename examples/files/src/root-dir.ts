import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The directory served when none is given: the bundled `sample/` folder. */
export const SAMPLE_DIR = fileURLToPath(new URL('../sample', import.meta.url));

/**
 * The directory to serve, from the command line: `files [directory] [--http [--port N] [--host H]]`
 * (the flags are `serveFromArgs`'s). A relative directory is taken from where the user ran the
 * command — under `npm start -w`, npm runs us in the workspace folder and passes the original
 * directory as INIT_CWD.
 */
export function rootDirFromArgs(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string {
  const { positionals } = parseArgs({
    args: [...args],
    options: { http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length > 1)
    throw new Error(`one directory, please (got ${positionals.join(', ')})`);
  return positionals[0] === undefined
    ? SAMPLE_DIR
    : resolve(env.INIT_CWD ?? process.cwd(), positionals[0]);
}
