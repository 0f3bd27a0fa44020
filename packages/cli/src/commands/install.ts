import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argument, type Command } from 'commander';
import { CLIENTS, clientConfig, type ClientName, type ServerEntry } from '../install/clients.js';
import { readConfigFile, writeConfigFile } from '../install/config-file.js';
import { CliError } from '../output/cli-error.js';
import { styleFor } from '../output/style.js';
import { findProject, isTypeScript, resolveEntry } from '../project/project.js';
import { examples } from './options.js';

interface InstallOptions {
  name?: string;
  env: string[];
  mode?: 'dev' | 'start';
  print?: boolean;
  config?: string;
}

// The committed bin shim next to dist/ (works whether this runs from dist/ or src/).
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'mcp-fw.js');

/** `mcp-fw install <client> <entry>`: adds the server to a client's configuration. */
export function installCommand(program: Command): void {
  program
    .command('install')
    .description('Add the server to a client’s MCP configuration (Claude Desktop, Cursor or VS Code)')
    .addArgument(new Argument('<client>', 'the client to configure').choices(CLIENTS))
    .argument('<entry>', 'the module that exports your server: src/*.ts runs with mcp-fw dev, dist/*.js with mcp-fw start')
    .option('--name <name>', 'the server’s name in the configuration (default: the package name)')
    .option('--env <KEY=VALUE>', 'an environment variable for the server (repeatable)', collect, [])
    .option('--mode <mode>', 'run it with dev (hot reload) or start (built JavaScript)')
    .option('--print', 'print the configuration entry instead of writing it')
    .option('--config <path>', 'the configuration file to update (default: the client’s own)')
    .addHelpText(
      'after',
      examples([
        ['mcp-fw install claude src/server.ts', 'Claude Desktop runs mcp-fw dev on your sources'],
        ['mcp-fw install cursor dist/server.js --env API_KEY=secret', 'Cursor runs the build, with a variable'],
        ['mcp-fw install vscode src/server.ts --print', 'show the .vscode/mcp.json entry only'],
        ['mcp-fw install claude dist/server.launch.cjs', 'the bundle of mcp-fw build --bundle, run by node'],
      ]) + '\nOther servers in the file are kept; an entry of the same name is replaced.\n',
    )
    .action((client: ClientName, entryArg: string, options: InstallOptions) => install(client, entryArg, options));
}

function install(client: ClientName, entryArg: string, options: InstallOptions): void {
  const entry = resolveEntry(entryArg);
  // A launcher from mcp-fw build --bundle starts itself: the client runs it with node directly.
  const launcher = entry.endsWith('.launch.cjs');
  const mode = options.mode ?? (isTypeScript(entry) ? 'dev' : 'start');
  if (mode !== 'dev' && mode !== 'start') throw new CliError(`--mode must be dev or start, not ${mode}.`, 'Pass --mode dev or --mode start.');
  const env = Object.fromEntries(options.env.map(parseEnv));
  const server: ServerEntry = {
    command: process.execPath,
    args: launcher ? [entry] : [BIN, mode, entry],
    ...(options.env.length ? { env } : {}),
  };
  const runs = launcher ? `node ${relative(process.cwd(), entry)}` : `mcp-fw ${mode} ${relative(process.cwd(), entry)}`;
  const config = clientConfig(client);
  const name = options.name ?? defaultName(entry);
  const shaped = config.shape(server);
  if (options.print) {
    process.stdout.write(`${JSON.stringify({ [config.key]: { [name]: shaped } }, null, 2)}\n`);
    return;
  }
  const path = resolve(options.config ?? config.path);
  const current = readConfigFile(path);
  const servers = current[config.key] ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new CliError(`"${config.key}" in ${path} is not an object.`, 'Fix the file, or use --print and add the entry by hand.');
  }
  const replaced = name in servers;
  writeConfigFile(path, { ...current, [config.key]: { ...servers, [name]: shaped } });
  const style = styleFor(process.stdout);
  process.stdout.write(
    `${style.green(replaced ? 'Updated' : 'Added')} ${style.bold(name)} in ${path} (${config.title}): ${runs}\n${config.next}\n`,
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseEnv(pair: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new CliError(`--env ${pair} is not KEY=VALUE.`, 'Write each variable as --env NAME=value.');
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/** The package's name without its scope, else the project directory's name. */
function defaultName(entry: string): string {
  const project = findProject(entry);
  const pkg = project.packageJson?.data.name;
  const raw = typeof pkg === 'string' ? pkg.replace(/^@[^/]+\//, '') : basename(project.dir);
  return raw.replace(/[^A-Za-z0-9_-]/g, '-');
}
