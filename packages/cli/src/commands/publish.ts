import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { runToExit } from '../output/report-error.js';
import { loadEntry } from '../project/load-entry.js';
import { serverJson } from '../publish/server-json.js';
import { examples } from './options.js';

interface PublishOptions {
  dryRun?: boolean;
  out: string;
  remote: string[];
  mcpb?: string;
  mcpbFile?: string;
  npm: boolean;
}

/** `mcp-fw publish --dry-run`: writes and validates server.json for the MCP registry. */
export function publishCommand(program: Command): void {
  program
    .command('publish')
    .description(
      "Write server.json for the MCP registry from the server's metadata, validated against the 2025-12-11 schema",
    )
    .argument('[entry]', 'the module that exports your server (default: src/server.ts)')
    .option('--dry-run', 'write and validate server.json, publish nothing (required for now)')
    .option('-o, --out <file>', 'where to write it', 'server.json')
    .option(
      '--remote <url>',
      'a Streamable HTTP URL the server is reachable at, {variables} allowed (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--mcpb <url>', 'the release URL of an MCP bundle of the server (with --mcpb-file)')
    .option('--mcpb-file <file>', 'the bundle itself, whose SHA-256 server.json records')
    .option('--no-npm', 'leave out the npm package (a remote-only or bundle-only server)')
    .addHelpText(
      'after',
      `${examples([
        [
          'mcp-fw publish --dry-run',
          'server.json for the npm package (package.json needs mcpName)',
        ],
        [
          'mcp-fw publish --dry-run --remote "https://{tenant}.example.com/mcp"',
          'with a hosted endpoint',
        ],
        [
          'mcp-fw publish --dry-run --mcpb https://github.com/me/s/releases/download/v1.0.0/s.mcpb --mcpb-file s.mcpb',
          'with a bundle',
        ],
      ])}\nThen publish with the registry's own tool: mcp-publisher login github && mcp-publisher publish.\n`,
    )
    .action((entry: string | undefined, options: PublishOptions) =>
      runToExit(async () => {
        if (!options.dryRun)
          throw new CliError(
            'mcp-fw publish only writes server.json for now; publishing needs the registry login',
            'Run mcp-fw publish --dry-run, then mcp-publisher login github && mcp-publisher publish.',
            2,
          );
        if (Boolean(options.mcpb) !== Boolean(options.mcpbFile))
          throw new CliError(
            '--mcpb and --mcpb-file go together',
            'Give the bundle release URL with --mcpb and the file with --mcpb-file.',
            2,
          );
        const server = await loadEntry(entry, 'publish');
        const packageJson = readPackageJson();
        const document = serverJson(server, {
          packageJson,
          remotes: options.remote,
          npm: options.npm,
          ...(options.mcpb && { mcpb: { url: options.mcpb, file: options.mcpbFile! } }),
        });
        const out = resolve(options.out);
        writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
        process.stderr.write(
          `mcp-fw publish: wrote ${relative(process.cwd(), out) || out} (${document.name} ${document.version}); valid against the 2025-12-11 server.json schema\n`,
        );
        return 0;
      }),
    );
}

function readPackageJson(): Record<string, unknown> {
  const file = join(process.cwd(), 'package.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as Error).message}`,
      'Run mcp-fw publish in the project folder (the one holding package.json).',
    );
  }
}
