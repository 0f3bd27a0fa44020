import type { Command } from 'commander';
import { connectInProcess } from '../client/in-process.js';
import { RpcError } from '../client/jsonrpc-peer.js';
import { fetchLists } from '../client/lists.js';
import { formatCallResult } from '../output/call-result.js';
import { CliError } from '../output/cli-error.js';
import { ProgressBar } from '../output/progress-bar.js';
import { runToExit } from '../output/report-error.js';
import { takeStdout } from '../output/stdout.js';
import { styleFor } from '../output/style.js';
import { loadEntry } from '../project/load-entry.js';
import { callArguments } from './call-arguments.js';
import { examples } from './options.js';

interface CallOptions {
  json?: string;
  raw?: boolean;
}

/** `mcp-fw call <entry> <tool> [key=value…]`: runs one tool in process. */
export function callCommand(program: Command): void {
  program
    .command('call')
    .description('Run one tool in process (no client needed) and print its result')
    .argument('<entry>', 'the module that exports your server, e.g. src/server.ts')
    .argument('<tool>', 'the tool to call')
    .argument('[arguments...]', 'arguments as name=value (values read as the tool’s schema types)')
    .option('--json <object>', 'arguments as one JSON object (name=value pairs override its keys)')
    .option('--raw', 'print the whole result as JSON')
    .addHelpText(
      'after',
      examples([
        ['mcp-fw call src/server.ts add a=1 b=2', 'arguments by name'],
        [`mcp-fw call src/server.ts search --json '{"query":"x","tags":["a"]}'`, 'arguments as JSON'],
        ['mcp-fw call dist/server.js add a=1 b=2 --raw', 'the result as JSON'],
      ]) + '\nProgress is drawn on a terminal. A result with isError exits with status 1.\n',
    )
    .action((entry: string, tool: string, pairs: string[], options: CallOptions) => runToExit(async () => {
      const out = takeStdout();
      const style = styleFor(process.stderr);
      const bar = new ProgressBar(process.stderr);
      const server = await loadEntry(entry, 'call');
      const client = await connectInProcess(server, {
        notification: (method, params) => {
          if (method === 'notifications/progress') bar.update(Number(params?.progress), params?.total as number | undefined, params?.message as string | undefined);
          if (method === 'notifications/message') {
            bar.clear();
            const data = typeof params?.data === 'string' ? params.data : JSON.stringify(params?.data);
            process.stderr.write(style.dim(`[${params?.level}] ${data}`) + '\n');
          }
        },
      });
      const tools = (await fetchLists(client.peer)).tools;
      const definition = tools.find((t) => t.name === tool);
      if (!definition) {
        throw new CliError(
          `The server has no tool named ${tool}.`,
          tools.length ? `Call one of: ${tools.map((t) => t.name).join(', ')}.` : 'It has no tools at all; check its providers.',
        );
      }
      const args = callArguments(pairs, options.json, definition.inputSchema ?? {});
      let result: Record<string, any>;
      try {
        result = await client.peer.request('tools/call', { name: tool, arguments: args, ...(bar.enabled ? { _meta: { progressToken: 1 } } : {}) });
      } catch (error) {
        if (error instanceof RpcError) throw new CliError(`${tool} failed: ${error.message}.`, 'Check the arguments against mcp-fw inspect, then try again.');
        throw error;
      } finally {
        bar.clear();
      }
      if (options.raw) out(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.isError) process.stderr.write(style.red(formatCallResult(result)));
      else out(formatCallResult(result));
      await client.close();
      return result.isError ? 1 : 0;
    }));
}
