import type { Command } from 'commander';
import { connectInProcess } from '../client/in-process.js';
import { fetchLists } from '../client/lists.js';
import {
  connectRemote,
  describedServer,
  remoteLists,
  remoteTarget,
  type RemoteTarget,
} from '../client/remote.js';
import { CliError } from '../output/cli-error.js';
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
      'the module that exports your server, e.g. dist/server.js (default: src/server.ts of the project here), an http(s) URL, or a command line in quotes',
    )
    .option('--json', 'print JSON (the list results clients receive) instead of tables')
    .option(
      '--tokens',
      'count the tokens tools/list costs a model (o200k_base), per protocol revision and per tool, and name what to trim',
    )
    .option(
      '--header <name:value>',
      'an HTTP header for a URL target (repeat for more), e.g. "Authorization: Bearer <token>"',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw inspect', 'the project here (its src/server.ts), as readable tables'],
        ['mcp-fw inspect src/server.ts', 'an entry of your choice'],
        ['mcp-fw inspect --tokens', 'what tools/list costs in tokens, per revision and per tool'],
        [
          'mcp-fw inspect dist/server.js --json',
          'the exact list results, for scripts and snapshots',
        ],
        [
          'mcp-fw inspect https://example.com/mcp --header "Authorization: Bearer $T"',
          'a running server',
        ],
        [
          'mcp-fw inspect "npx -y @modelcontextprotocol/server-everything"',
          'a server started over stdio',
        ],
      ])}\nExits with status 1 and the startup error when the server is invalid.\n`,
    )
    .action(
      (
        entry: string | undefined,
        options: { json?: boolean; header?: string[]; tokens?: boolean },
      ) =>
        runToExit(async () => {
          const remote = remoteTarget(entry);
          if (options.tokens) {
            if (remote)
              throw new CliError(
                '--tokens counts a server loaded here, not one reached by URL or command.',
                "Run it in the server's project: mcp-fw inspect --tokens [entry].",
                2,
              );
            const out = takeStdout();
            // Imported here: the tokenizer's tables cost every other inspect half its start.
            const { eraFootprints, footprintReport } = await import('../tokens/era-footprints.js');
            const { TOKENIZER } = await import('../tokens/footprint.js');
            const eras = await eraFootprints(await loadEntry(entry, 'inspect'));
            out(
              options.json
                ? `${JSON.stringify({ tokenizer: TOKENIZER, eras }, null, 2)}\n`
                : footprintReport(eras),
            );
            return 0;
          }
          if (remote) return inspectRemote(remote, options);
          if (options.header?.length)
            throw new CliError(
              '--header applies to a server reached by URL.',
              'Drop --header, or name the server by its URL: mcp-fw inspect https://host/mcp.',
              2,
            );
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

/** `mcp-fw inspect <url|command>`: the same report, of a running server, through the client. */
async function inspectRemote(
  target: RemoteTarget,
  options: { json?: boolean; header?: string[] },
): Promise<number> {
  const out = takeStdout();
  const client = await connectRemote(target, { stdio: { onStderr: () => {} } }, options.header);
  try {
    const lists = await remoteLists(client);
    const initialize = describedServer(client);
    if (options.json) {
      const { serverInfo, instructions, protocolVersion } = initialize;
      out(`${JSON.stringify({ serverInfo, instructions, protocolVersion, ...lists }, null, 2)}\n`);
    } else out(inspectReport(initialize, lists, styleFor(process.stdout)));
    return 0;
  } finally {
    await client.close();
  }
}
