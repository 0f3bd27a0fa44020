import type { Command } from 'commander';
import { connectInProcess } from '../client/in-process.js';
import { fetchLists } from '../client/lists.js';
import { inspectReport } from '../output/inspect-report.js';
import { runToExit } from '../output/report-error.js';
import { takeStdout } from '../output/stdout.js';
import { styleFor } from '../output/style.js';
import { loadEntry } from '../project/load-entry.js';
import { examples } from './options.js';

/** `mcp-fw inspect [entry]`: what a server offers, with its schemas. */
export function inspectCommand(program: Command): void {
  program
    .command('inspect')
    .description(
      'Print the tools, resources, templates and prompts a server offers, with their schemas',
    )
    .argument(
      '[entry]',
      'the module that exports your server, e.g. dist/server.js (default: src/server.ts of the project here)',
    )
    .option('--json', 'print JSON (the list results clients receive) instead of tables')
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw inspect', 'the project here (its src/server.ts), as readable tables'],
        ['mcp-fw inspect src/server.ts', 'an entry of your choice'],
        [
          'mcp-fw inspect dist/server.js --json',
          'the exact list results, for scripts and snapshots',
        ],
      ])}\nExits with status 1 and the startup error when the server is invalid.\n`,
    )
    .action((entry: string | undefined, options: { json?: boolean }) =>
      runToExit(async () => {
        const out = takeStdout();
        const server = await loadEntry(entry, 'inspect');
        const client = await connectInProcess(server);
        const lists = await fetchLists(client.peer);
        const { serverInfo, instructions, protocolVersion } = client.initializeResult;
        if (options.json) {
          out(
            `${JSON.stringify({ serverInfo, instructions, protocolVersion, ...lists }, null, 2)}\n`,
          );
        } else {
          out(inspectReport(client.initializeResult, lists, styleFor(process.stdout)));
        }
        await client.close();
        return 0;
      }),
    );
}
