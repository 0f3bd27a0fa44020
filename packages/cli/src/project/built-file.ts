import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { CliError } from '../output/cli-error.js';
import { RunCompiler } from './compile.js';
import { findProject, isTypeScript } from './project.js';

/** A TypeScript entry stands for its build output, which must exist. */
export async function builtFile(entry: string): Promise<string> {
  if (!isTypeScript(entry)) return entry;
  const compiler = await RunCompiler.create(entry, findProject(entry));
  const output = compiler.builtOutputOf(entry);
  if (!output || !existsSync(output)) {
    throw new CliError(
      `${relative(process.cwd(), entry)} has no build output${output ? ` (${relative(process.cwd(), output)} is missing)` : ''}.`,
      'Build the project first with mcp-fw build, or pass the built file (e.g. dist/server.js).',
    );
  }
  return output;
}
