import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { connectInProcess } from '../client/in-process.js';
import { fetchLists } from '../client/lists.js';
import { connectRemote, describeTarget, remoteTarget } from '../client/remote.js';
import { toolTypes, type TypedTool } from '../client/tool-types.js';
import { CliError } from '../output/cli-error.js';
import { runToExit } from '../output/report-error.js';
import { takeStdout } from '../output/stdout.js';
import { loadEntry } from '../project/load-entry.js';
import { examples } from './options.js';

interface ClientTypesOptions {
  out?: string;
  header?: string[];
}

/** `mcp-fw client-types <file|url|command> --out types.ts`: TypeScript for a server's tools. */
export function clientTypesCommand(program: Command): void {
  program
    .command('client-types')
    .description(
      "Write TypeScript types for a server's tools (from their input and output schemas), for typedClient<Tools>()",
    )
    .argument(
      '[server]',
      'a source file exporting your server (default: src/server.ts here), an http(s) URL, or a command line in quotes',
    )
    .option('--out <file>', 'the file to write (default: print to stdout)')
    .option(
      '--header <name:value>',
      'an HTTP header for a URL target (repeat for more)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw client-types --out src/tools.ts', 'the project here'],
        ['mcp-fw client-types https://example.com/mcp --out weather-tools.ts', 'a running server'],
        [
          'mcp-fw client-types "npx -y @modelcontextprotocol/server-everything" --out everything.ts',
          'a server started over stdio',
        ],
      ])}\nThen: const weather = typedClient<Tools>(await connect(url));\n      await weather.tools.get_forecast({ latitude, longitude }); // checked by tsc\n`,
    )
    .action((server: string | undefined, options: ClientTypesOptions) =>
      runToExit(async () => {
        const remote = remoteTarget(server);
        let tools: readonly TypedTool[];
        let source: string;
        if (remote) {
          const client = await connectRemote(
            remote,
            { stdio: { onStderr: () => {} } },
            options.header,
          );
          try {
            tools = await client.listTools();
          } finally {
            await client.close();
          }
          source = describeTarget(remote);
        } else {
          if (options.header?.length)
            throw new CliError(
              '--header applies to a server reached by URL.',
              'Drop --header, or name the server by its URL.',
              2,
            );
          const client = await connectInProcess(await loadEntry(server, 'client-types'));
          tools = (await fetchLists(client.peer)).tools as readonly TypedTool[];
          await client.close();
          source = server ?? 'src/server.ts';
        }
        const text = await toolTypes(tools, source);
        if (options.out) {
          writeFileSync(options.out, text);
          process.stderr.write(`Wrote ${options.out}: types for ${tools.length} tools\n`);
        } else takeStdout()(text);
        return 0;
      }),
    );
}
