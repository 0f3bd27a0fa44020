import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { McpFwServer } from '@mcp-fw/core';
import { CliError } from '../output/cli-error.js';
import { RunCompiler } from './compile.js';
import { LoadError, loadServer } from './load-server.js';
import { cacheRoot, findProject, isTypeScript, resolveEntry } from './project.js';
import { freshSchemas } from './schemas-freshness.js';

/**
 * Loads the server an entry exports, in this process: TypeScript entries are compiled first
 * with the project's own tsc (decorator metadata included, as in production). Load failures
 * become a {@link CliError} that quotes the server's error.
 */
export async function loadEntry(
  entryArg: string | undefined,
  command: string,
): Promise<McpFwServer> {
  const entry = resolveEntry(entryArg);
  const shown = relative(process.cwd(), entry) || entry;
  let file = entry;
  const project = findProject(entry);
  if (isTypeScript(entry)) {
    if (command === 'inspect' || command === 'call')
      await freshSchemas(
        project,
        command,
        (line) => process.stderr.write(`mcp-fw ${command}: ${line}\n`),
        entry,
      );
    const compiler = await RunCompiler.create(entry, project);
    const dir = join(cacheRoot(project), `run-${process.pid}`);
    // Removed at exit, not after loading: the server may still import modules lazily.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const result = await compiler.compile(dir);
    if (!result.ok) {
      throw new CliError(
        `${shown} does not compile: ${result.error}`,
        result.fix ?? `Fix the error and run mcp-fw ${command} again.`,
      );
    }
    file = result.entry;
  }
  try {
    return await loadServer(file, shown, project.dir);
  } catch (error) {
    if (error instanceof LoadError)
      throw new CliError(error.message, `Fix the error and run mcp-fw ${command} again.`);
    throw error;
  }
}
