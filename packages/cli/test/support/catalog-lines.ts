// Prints, as JSON, each command's line in `mcp-fw --help` as its own module registers it: the
// name, the help term and the description (lazy-commands.test.ts compares them with the
// catalog). A process of its own, so that the test's worker does not transform every command.
import { Command, Help } from 'commander';
import { COMMANDS } from '../../src/commands/catalog.ts';

const help = new Help();
const lines = [];
for (const entry of COMMANDS) {
  const program = new Command('mcp-fw');
  (await entry.load())(program);
  const command = program.commands.find((c) => c.name() === entry.name);
  lines.push({
    name: entry.name,
    term: command ? help.subcommandTerm(command) : '(no such command registered)',
    description: command?.description() ?? '',
  });
}
process.stdout.write(`${JSON.stringify(lines)}\n`);
