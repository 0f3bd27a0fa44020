import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argument, type Command } from 'commander';
import { CLIENTS, clientConfig, type ClientName, type ServerEntry } from '../install/clients.js';
import { readConfigFile, writeConfigFile } from '../install/config-file.js';
import { CliError } from '../output/cli-error.js';
import { styleFor } from '../output/style.js';
import { RunCompiler } from '../project/compile.js';
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

/** `mcp-fw install <client> [entry]`: adds the server to a client's configuration. */
export function installCommand(program: Command): void {
  program
    .command('install')
    .description(
      'Add the server to a client’s MCP configuration (Claude Desktop, Cursor or VS Code)',
    )
    .addArgument(new Argument('<client>', 'the client to configure').choices(CLIENTS))
    .argument(
      '[entry]',
      'the module that exports your server (default: src/server.ts of the project here); its built launcher when there is one, else src/*.ts runs with mcp-fw dev, dist/*.js with mcp-fw start',
    )
    .option('--name <name>', 'the server’s name in the configuration (default: the package name)')
    .option(
      '--env <KEY=VALUE>',
      'an environment variable for the server (repeatable; added to those written before)',
      collect,
      [],
    )
    .option(
      '--mode <mode>',
      'run it with dev (hot reload) or start (built JavaScript), even when a launcher is built',
    )
    .option('--print', 'print the configuration entry instead of writing it')
    .option('--config <path>', 'the configuration file to update (default: the client’s own)')
    .addHelpText(
      'after',
      examples([
        [
          'mcp-fw install claude',
          'Claude Desktop runs the built launcher (dist/server.launch.cjs), else mcp-fw dev',
        ],
        [
          'mcp-fw install claude src/server.ts --mode dev',
          'Claude Desktop runs mcp-fw dev on your sources',
        ],
        [
          'mcp-fw install cursor dist/server.js --env API_KEY=secret',
          'Cursor runs the build, with a variable',
        ],
        ['mcp-fw install vscode src/server.ts --print', 'show the .vscode/mcp.json entry only'],
        [
          'mcp-fw install claude dist/server.launch.cjs',
          'the bundle of mcp-fw build --bundle, run by node',
        ],
      ]) +
        '\nOther servers in the file are kept; an entry of the same name is replaced, keeping the env\n' +
        'variables it had unless --env gives them again.\n',
    )
    .action((client: ClientName, entryArg: string | undefined, options: InstallOptions) =>
      install(client, entryArg, options),
    );
}

async function install(
  client: ClientName,
  entryArg: string | undefined,
  options: InstallOptions,
): Promise<void> {
  const entry = resolveEntry(entryArg);
  if (options.mode !== undefined && options.mode !== 'dev' && options.mode !== 'start') {
    throw new CliError(
      `--mode must be dev or start, not ${options.mode}.`,
      'Pass --mode dev or --mode start.',
    );
  }
  const how = await howToRun(entry, options.mode);
  const given = Object.fromEntries(options.env.map(parseEnv));
  const config = clientConfig(client);
  const name = options.name ?? defaultName(entry);
  const style = styleFor(process.stdout);
  if (options.print) {
    const shaped = config.shape({ ...how.server, ...(options.env.length ? { env: given } : {}) });
    process.stdout.write(`${JSON.stringify({ [config.key]: { [name]: shaped } }, null, 2)}\n`);
    return;
  }
  const path = resolve(options.config ?? config.path);
  const current = readConfigFile(path);
  const servers = current[config.key] ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new CliError(
      `"${config.key}" in ${path} is not an object.`,
      'Fix the file, or use --print and add the entry by hand.',
    );
  }
  const previous = (servers as Record<string, { env?: unknown }>)[name];
  // Variables written earlier (an API key, say) survive a re-install; --env adds or replaces.
  const earlier =
    previous && typeof previous.env === 'object' && previous.env !== null
      ? (previous.env as Record<string, string>)
      : {};
  const env = { ...earlier, ...given };
  const kept = Object.keys(earlier).filter((key) => !(key in given));
  const shaped = config.shape({ ...how.server, ...(Object.keys(env).length ? { env } : {}) });
  writeConfigFile(path, { ...current, [config.key]: { ...servers, [name]: shaped } });
  process.stdout.write(
    `${style.green(previous ? 'Updated' : 'Added')} ${style.bold(name)} in ${path} (${config.title}): ${how.runs}\n` +
      (how.note ? `${how.note}\n` : '') +
      (kept.length
        ? `Kept ${kept.join(', ')} from the earlier entry's env (--env ${kept[0]}=… replaces it).\n`
        : '') +
      `${config.next}\n`,
  );
}

/** The command a client runs for `entry`, what to call it, and why it was chosen. */
interface RunPlan {
  readonly server: ServerEntry;
  readonly runs: string;
  readonly note?: string;
}

/**
 * How the client should run the server: a launcher from `mcp-fw build --bundle` runs with node
 * directly (the fastest start, and what the scaffolder recommends); without `--mode`, a source
 * or build whose launcher exists is installed as that launcher; otherwise TypeScript runs with
 * `mcp-fw dev` and JavaScript with `mcp-fw start`.
 */
async function howToRun(entry: string, mode: 'dev' | 'start' | undefined): Promise<RunPlan> {
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const launcherRun = (launcher: string, note?: string): RunPlan => ({
    server: { command: process.execPath, args: [launcher] },
    runs: `node ${shown(launcher)}`,
    note,
  });
  if (entry.endsWith('.launch.cjs')) return launcherRun(entry);
  const cli = (chosen: 'dev' | 'start', note?: string): RunPlan => ({
    server: { command: process.execPath, args: [BIN, chosen, entry] },
    runs: `mcp-fw ${chosen} ${shown(entry)}`,
    note,
  });
  if (mode) return cli(mode);
  const launcher = await expectedLauncher(entry);
  if (launcher && existsSync(launcher)) {
    return launcherRun(
      launcher,
      `That is the production launcher mcp-fw build --bundle wrote for ${shown(entry)}: rebuild after changes (--mode dev installs the hot-reloading dev runner instead).`,
    );
  }
  if (!isTypeScript(entry)) return cli('start');
  const missing = launcher ? ` (${shown(launcher)})` : '';
  return cli(
    'dev',
    `That is the dev runner on your sources: no built launcher${missing} was found. For the production launcher, run mcp-fw build --bundle (npm run build), then install again.`,
  );
}

/** Where `mcp-fw build --bundle` writes the launcher for `entry` (a source stands for its build output). */
async function expectedLauncher(entry: string): Promise<string | undefined> {
  if (!isTypeScript(entry)) return launcherBeside(entry);
  try {
    const built = (await RunCompiler.create(entry, findProject(entry))).builtOutputOf(entry);
    return built && launcherBeside(built);
  } catch {
    // No tsconfig or no TypeScript: nothing was built from it either.
    return undefined;
  }
}

/** `dist/server.js` → `dist/server.launch.cjs`, as bundle-server names it. */
function launcherBeside(file: string): string {
  return join(dirname(file), `${basename(file, extname(file))}.launch.cjs`);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseEnv(pair: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0)
    throw new CliError(
      `--env ${pair} is not KEY=VALUE.`,
      'Write each variable as --env NAME=value.',
    );
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/** The package's name without its scope, else the project directory's name. */
function defaultName(entry: string): string {
  const project = findProject(entry);
  const pkg = project.packageJson?.data.name;
  const raw = typeof pkg === 'string' ? pkg.replace(/^@[^/]+\//, '') : basename(project.dir);
  return raw.replace(/[^A-Za-z0-9_-]/g, '-');
}
