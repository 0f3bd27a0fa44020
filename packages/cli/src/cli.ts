import { Command, CommanderError, Help } from 'commander';
import { COMMANDS, invokedCommand } from './commands/catalog.js';
import { examples } from './commands/options.js';
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
  // Only the typed command's module is loaded (see commands/catalog.ts); the others are listed
  // from the catalog, by stand-ins that carry their name and description.
  const invoked = invokedCommand(argv);
  const standIns = new WeakSet<Command>();
  const program = new Command('mcp-fw')
    .description('Develop, inspect, build, run and install MCP servers written with mcp-fw')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run mcp-fw <command> --help for usage and examples)')
    .configureOutput({ outputError: (text, write) => write(style.red(text)) })
    .configureHelp({
      subcommandTerm(this: Help, command: Command) {
        const entry = standIns.has(command)
          ? COMMANDS.find((c) => c.name === command.name())
          : undefined;
        return entry ? entry.term : Help.prototype.subcommandTerm.call(this, command);
      },
    })
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
  try {
    for (const entry of COMMANDS) {
      if (entry === invoked) (await entry.load())(program);
      else standIns.add(program.command(entry.name).description(entry.description));
    }
    for (const command of program.commands) command.exitOverride();
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
