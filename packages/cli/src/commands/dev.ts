import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { runInspector } from '../dev/inspector.js';
import { Supervisor } from '../dev/supervisor.js';
import { CliError } from '../output/cli-error.js';
import { devSchemas } from '../dev/schemas.js';
import { SkillsWatcher } from '../dev/skills-watcher.js';
import { removeStaleCaches } from '../dev/stale-caches.js';
import { styleFor } from '../output/style.js';
import { RunCompiler } from '../project/compile.js';
import { cacheRoot, findProject, isTypeScript, resolveEntry } from '../project/project.js';
import { examples, httpPort, parseMs, parsePort, PORT_HELP } from './options.js';

interface DevOptions {
  http?: boolean;
  inspector?: boolean;
  preview?: number | true;
  port?: number;
  host: string;
  debounce: number;
  grace: number;
}

/** `mcp-fw dev [entry]`: the hot-reloading dev runner. */
export function devCommand(program: Command): void {
  program
    .command('dev')
    .description('Run a server with hot reload: edits apply without the client reconnecting')
    .argument(
      '[entry]',
      'the module that exports your server (as `server` or default; default: src/server.ts of the project here)',
    )
    .option('--http', 'serve Streamable HTTP (and HTTP+SSE) instead of stdio')
    .option('--port <port>', PORT_HELP, parsePort)
    .option('--host <host>', 'HTTP interface to listen on', '127.0.0.1')
    .option('--debounce <ms>', 'wait this long after a change before reloading', parseMs, 50)
    .option('--grace <ms>', 'how long calls in flight may finish on the old code', parseMs, 10_000)
    .option(
      '--inspector',
      'run it under the official MCP Inspector (fetched with npx) and print its URL',
    )
    .option(
      '--preview [port]',
      'serve the MCP Apps preview host (pick a tool, see its view under its CSP) on this port (default: any free one)',
      parsePort,
    )
    .addHelpText(
      'after',
      examples([
        ['mcp-fw dev', 'the project here (its src/server.ts), over stdio'],
        ['mcp-fw dev src/server.ts', 'stdio: put this command in your client’s MCP config'],
        [
          'mcp-fw dev src/server.ts --http --port 3000',
          'Streamable HTTP at http://127.0.0.1:3000/mcp',
        ],
        ['mcp-fw dev src/server.ts --inspector', 'try it in the MCP Inspector in your browser'],
        ['mcp-fw dev --preview', 'open the printed URL to call a tool and see its MCP Apps view'],
      ]) +
        '\nThe server runs in a child process that is replaced when a file its entry imports changes.\n' +
        'Clients stay connected and get notifications/*/list_changed; decorator metadata is compiled\n' +
        'by the project’s own tsc, so schemas match the built server. The skills/ folder is watched too\n' +
        '(a changed skills/list is announced as notifications/resources/list_changed). A project using @mcp-fw/typescript\n' +
        'gets its schemas module (src/schemas.gen.ts) regenerated from the types before each reload.\n',
    )
    .action((entry: string | undefined, options: DevOptions) => runDev(entry, options));
}

async function runDev(entryArg: string | undefined, options: DevOptions): Promise<void> {
  const entry = resolveEntry(entryArg);
  if (options.inspector) {
    if (options.http)
      throw new CliError(
        '--inspector and --http cannot be combined.',
        'The Inspector runs mcp-fw dev over stdio itself: drop --http.',
      );
    const style = styleFor(process.stderr);
    process.exitCode = await runInspector(
      { entry, debounce: options.debounce, grace: options.grace },
      (line) => process.stderr.write(`${style.dim('mcp-fw dev')} ${line}\n`),
    );
    return;
  }
  const project = findProject(entry);
  const compiler = isTypeScript(entry) ? await RunCompiler.create(entry, project) : undefined;
  const root = cacheRoot(project);
  removeStaleCaches(root);
  const cacheDir = join(root, `dev-${process.pid}`);
  const style = styleFor(process.stderr);
  const schemas = compiler
    ? await devSchemas(
        project,
        (line) => process.stderr.write(`${style.dim('mcp-fw dev')} ${line}\n`),
        entry,
      )
    : undefined;
  const supervisor = new Supervisor({
    entry,
    compiler,
    schemas,
    cacheDir,
    debounceMs: options.debounce,
    graceMs: options.grace,
    // Views are read from the build (dist/views/), as the server will read them once built.
    skillsDir: SkillsWatcher.folderOf(project.dir),
    views: compiler?.project.dir
      ? { projectDir: compiler.project.dir, outDir: join(compiler.project.dir, 'dist') }
      : undefined,
    report: (kind, line) =>
      process.stderr.write(
        `${style.dim('mcp-fw dev')} ${kind === 'error' ? style.red(line) : line}\n`,
      ),
  });
  process.once('exit', () => {
    supervisor.killAll();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  if (options.preview !== undefined) {
    const { startPreview } = await import('../dev/preview/server.js');
    const port = options.preview === true ? 0 : options.preview;
    const preview = await startPreview(supervisor, {
      port,
      host: options.host,
      projectDir: compiler?.project.dir,
    }).catch(async (error: NodeJS.ErrnoException) => {
      // Not serving: the file watcher must not keep the process alive.
      await supervisor.close();
      if (error.code !== 'EADDRINUSE') throw error;
      throw new CliError(
        `The preview's port ${port} on ${options.host} is in use.`,
        'Give another with --preview <port>, or --preview alone for any free port.',
      );
    });
    process.stderr.write(
      `${style.dim('mcp-fw dev')} MCP Apps preview at ${style.cyan(preview.url)}\n`,
    );
  }
  if (options.http) {
    const { PortInUseError, serveHttp } = await import('@mcp-fw/core/node');
    let handle: Awaited<ReturnType<typeof serveHttp>>;
    try {
      handle = await serveHttp(supervisor, { port: httpPort(options.port), host: options.host });
    } catch (error) {
      // Not serving: the file watcher must not keep the process alive.
      await supervisor.close();
      if (error instanceof PortInUseError)
        throw new CliError(error.reason, error.fix('--port <n> (or PORT=<n>)'));
      throw error;
    }
    process.stderr.write(
      `${style.dim('mcp-fw dev')} listening on ${style.cyan(handle.url)} (HTTP+SSE at /sse)\n`,
    );
    const stop = () =>
      void Promise.all([handle.close(), supervisor.close()]).then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } else {
    // Imported here: importing it takes stdout for frames, which only stdio serving wants.
    const { serveStdio } = await import('@mcp-fw/core/stdio');
    serveStdio(supervisor, { shutdownGraceMs: options.grace });
  }
  await supervisor.start();
  const watched = supervisor.watched.map((f) => relative(process.cwd(), f));
  process.stderr.write(
    `${style.dim('mcp-fw dev')} watching ${watched.length} files (${watched.slice(0, 3).join(', ')}${watched.length > 3 ? ', …' : ''})\n`,
  );
}
