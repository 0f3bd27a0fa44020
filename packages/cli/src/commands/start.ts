import { relative } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { builtFile } from '../project/built-file.js';
import { LoadError, loadServer } from '../project/load-server.js';
import { findProject, resolveEntry } from '../project/project.js';
import { warnStaleSchemas } from '../project/schemas-freshness.js';
import { examples, httpPort, parsePort, PORT_HELP } from './options.js';

interface StartOptions {
  http?: boolean;
  port?: number;
  host: string;
}

/** `mcp-fw start <entry>`: serves the built server (production). */
export function startCommand(program: Command): void {
  program
    .command('start')
    .description('Serve the built server (production): stdio, or Streamable HTTP with --http')
    .argument('<entry>', 'the built module that exports your server, e.g. dist/server.js')
    .option('--http', 'serve Streamable HTTP (and HTTP+SSE) instead of stdio')
    .option('--port <port>', PORT_HELP, parsePort)
    .option('--host <host>', 'HTTP interface to listen on', '127.0.0.1')
    .addHelpText(
      'after',
      examples([
        ['mcp-fw start dist/server.js', 'stdio, for a client’s MCP config'],
        [
          'mcp-fw start dist/server.js --http --port 8080',
          'Streamable HTTP at http://127.0.0.1:8080/mcp',
        ],
        ['mcp-fw start src/server.ts', 'runs its build output (dist/server.js)'],
      ]),
    )
    .action(async (entryArg: string, options: StartOptions) => {
      if (/\.(launch|bundle)\.cjs$/.test(entryArg)) {
        throw new CliError(
          `${entryArg} is a bundle from mcp-fw build --bundle: it starts itself, without the CLI.`,
          `Run node ${entryArg.replace(/\.bundle\.cjs$/, '.launch.cjs')} (add --http [--port N] for Streamable HTTP).`,
        );
      }
      const file = await builtFile(resolveEntry(entryArg));
      await warnStaleSchemas(findProject(file), (line) =>
        process.stderr.write(`mcp-fw start: ${line}\n`),
      );
      // Imported before the user's modules run: in stdio mode stdout carries frames only.
      const { serveFromArgs } = await import('@mcp-fw/core/serve');
      let server;
      try {
        server = await loadServer(file, relative(process.cwd(), file), findProject(file).dir);
      } catch (error) {
        if (error instanceof LoadError)
          throw new CliError(
            error.message,
            'Fix the error, rebuild (mcp-fw build) and start again.',
          );
        throw error;
      }
      const argv = options.http
        ? ['--http', '--port', String(httpPort(options.port)), '--host', options.host]
        : [];
      await serveFromArgs(server, argv);
    });
}
