import { Command, CommanderError } from 'commander';
import { authCommand } from './commands/auth-doctor.js';
import { buildCommand } from './commands/build.js';
import { callCommand } from './commands/call.js';
import { clientTypesCommand } from './commands/client-types.js';
import { devCommand } from './commands/dev.js';
import { examples } from './commands/options.js';
import { inspectCommand } from './commands/inspect.js';
import { installCommand } from './commands/install.js';
import { openapiCommand } from './commands/openapi.js';
import { proxyCommand } from './commands/proxy.js';
import { publishCommand } from './commands/publish.js';
import { startCommand } from './commands/start.js';
import { surfaceCommand } from './commands/surface.js';
import { reportError } from './output/report-error.js';
import { styleFor } from './output/style.js';
import { VERSION } from './version.js';

/**
 * Runs the `mcp-fw` command line with `argv` (without node and the script) and returns the exit
 * code. Long-running commands (`dev`, `start`) return 0 once serving; the process lives on.
 *
 * @example
 * ```ts
 * import { main } from '@mcp-fw/cli';
 * process.exitCode = await main(['inspect', 'src/server.ts', '--json']);
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const style = styleFor(process.stderr);
  const program = new Command('mcp-fw')
    .description('Develop, inspect, build, run and install MCP servers written with mcp-fw')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run mcp-fw <command> --help for usage and examples)')
    .configureOutput({ outputError: (text, write) => write(style.red(text)) })
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw dev src/server.ts', 'develop with hot reload (stdio; --http for HTTP)'],
        ['mcp-fw inspect src/server.ts', 'what the server offers, with schemas'],
        ['mcp-fw call src/server.ts add a=1 b=2', 'run one tool'],
        ['mcp-fw build && mcp-fw start dist/server.js', 'production'],
        ['mcp-fw install claude src/server.ts', 'add it to Claude Desktop'],
      ])}\nRun mcp-fw <command> --help for each command’s options and examples.\n`,
    );
  for (const register of [
    devCommand,
    inspectCommand,
    callCommand,
    clientTypesCommand,
    buildCommand,
    startCommand,
    installCommand,
    proxyCommand,
    publishCommand,
    authCommand,
    surfaceCommand,
    openapiCommand,
  ]) {
    register(program);
  }
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are how commander stops after printing them.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportError(error);
  }
}
