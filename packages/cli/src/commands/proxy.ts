import { existsSync, readFileSync, watch } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { examples, httpPort, parsePort, PORT_HELP } from './options.js';

interface ProxyCommandOptions {
  http?: boolean;
  port?: number;
  host: string;
  forwardToken?: boolean;
  watch: boolean;
}

/**
 * `mcp-fw proxy <config.json|url|command>`: one server in front of N upstreams (an `mcpServers`
 * file, each namespaced by its key, the file reloaded on change) or of one URL or command.
 */
export function proxyCommand(program: Command): void {
  program
    .command('proxy')
    .description(
      'Serve MCP servers through one (any era in, any era out): an mcpServers file, a URL or a command',
    )
    .argument('<target...>', 'an mcpServers JSON file, an http(s) URL, or a command (after --)')
    .option('--http', 'serve Streamable HTTP (and HTTP+SSE) instead of stdio')
    .option('--port <port>', PORT_HELP, parsePort)
    .option('--host <host>', 'HTTP interface to listen on', '127.0.0.1')
    .option(
      '--forward-token',
      'send each caller\'s bearer token to the upstream (one URL target only; in a file, set "forwardToken": true on the upstreams that should get it)',
    )
    .option('--no-watch', 'do not reload the mcpServers file when it changes')
    .addHelpText(
      'after',
      examples([
        ['mcp-fw proxy mcp.json', 'every server of mcp.json over stdio, as <name>_<tool>'],
        ['mcp-fw proxy mcp.json --http --port 8080', 'the same over HTTP; /healthz lists each'],
        ['mcp-fw proxy https://example.com/mcp', 'a remote server as a local stdio server'],
        [
          'mcp-fw proxy -- npx -y @modelcontextprotocol/server-everything',
          'a stdio server over HTTP (with --http)',
        ],
      ]),
    )
    .action(async (words: string[], options: ProxyCommandOptions) => {
      // Imported before anything may write: in stdio mode stdout carries frames only.
      const { createProxy } = await loadProxy();
      const file = configFile(words);
      const config = file ? readConfig(file) : undefined;
      const warn = (message: string) => process.stderr.write(`mcp-fw proxy: ${message}\n`);
      const proxy = await refusedAsCliError(file, () =>
        config
          ? createProxy(
              { mcpServers: config.servers },
              { upstreams: config.upstreams, onWarning: warn },
            )
          : createProxy(singleTarget(words), {
              credentials: options.forwardToken ? 'forward' : 'own',
              onWarning: warn,
            }),
      );
      if (file && options.watch) watchConfig(file, (next) => proxy.configure(next.servers), warn);
      if (!options.http) {
        const { serveStdio } = await import('@mcp-fw/core/stdio');
        serveStdio(proxy);
        return;
      }
      const { serveHttp } = await import('@mcp-fw/core/node');
      const handle = await serveHttp(proxy, {
        port: httpPort(options.port),
        host: options.host,
      });
      answerHealth(handle.httpServer, () => proxy.health());
      process.stderr.write(
        `mcp-fw proxy: serving ${proxy
          .health()
          .map((h) => `${h.name} (${h.state})`)
          .join(', ')} at ${handle.url}; health at ${handle.url.replace(/\/mcp$/, '/healthz')}\n`,
      );
    });
}

/**
 * A refused configuration (a transform of a tool an upstream does not have, a malformed
 * `tools` entry) is the user's to fix, not a bug: shown as the CLI's own error, cause and fix.
 */
async function refusedAsCliError<T>(file: string | undefined, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if ((error as Error)?.name !== 'StartupError') throw error;
    const [cause, fix] = (error as Error).message.split(/\. Fix: /);
    throw new CliError(
      `${file ? `${file}: ` : ''}${cause}.`,
      fix ?? 'Fix the "tools", "include" and "exclude" of that upstream.',
    );
  }
}

/** `@mcp-fw/proxy`, an optional peer of the CLI: only this command needs it. */
async function loadProxy(): Promise<typeof import('@mcp-fw/proxy')> {
  try {
    return await import('@mcp-fw/proxy');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError(
      'mcp-fw proxy needs the @mcp-fw/proxy package, which is not installed.',
      'Install it beside the CLI: npm install @mcp-fw/proxy',
    );
  }
}

interface Config {
  readonly servers: Record<string, Record<string, unknown>>;
  readonly upstreams: Record<string, { credentials: 'own' | 'forward' }>;
}

function configFile(words: string[]): string | undefined {
  if (words.length !== 1 || !words[0].endsWith('.json')) return undefined;
  const file = resolve(words[0]);
  if (!existsSync(file))
    throw new CliError(
      `${words[0]} does not exist.`,
      'Give an mcpServers JSON file ({ "mcpServers": { "name": { "command": … } } }), a URL, or a command after --.',
    );
  return file;
}

/** Reads an `mcpServers` file (Claude Desktop, Cursor and VS Code's `servers` spelling). */
function readConfig(file: string): Config {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliError(
      `${file} is not valid JSON: ${(error as Error).message}`,
      'Fix the file; it should look like { "mcpServers": { "name": { "command": "…", "args": […] } } }.',
    );
  }
  const record = parsed as { mcpServers?: unknown; servers?: unknown };
  const servers = record?.mcpServers ?? record?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new CliError(
      `${file} has no "mcpServers" object.`,
      'Write { "mcpServers": { "name": { "command": "…" } or { "url": "…" } } }.',
    );
  const upstreams: Config['upstreams'] = {};
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    const e = entry as { command?: unknown; url?: unknown; forwardToken?: unknown };
    if (
      typeof e !== 'object' ||
      e === null ||
      (typeof e.command !== 'string' && typeof e.url !== 'string')
    )
      throw new CliError(
        `${file}: the server "${name}" has neither a "command" nor a "url".`,
        `Give "${name}" a "command" (with "args") to start, or the "url" of an HTTP server.`,
      );
    if (e.forwardToken === true) upstreams[name] = { credentials: 'forward' };
  }
  return { servers: servers as Config['servers'], upstreams };
}

function singleTarget(words: string[]): string | { command: string; args: string[] } {
  if (words.length === 1 && /^https?:\/\//.test(words[0])) return words[0];
  const [command, ...args] = words.length === 1 ? words[0].split(/\s+/) : words;
  return { command, args };
}

/** Reloads the file when it changes (debounced); a broken edit is reported and ignored. */
function watchConfig(
  file: string,
  apply: (config: Config) => Promise<void>,
  warn: (message: string) => void,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = readFileSync(file, 'utf8');
  const reload = () => {
    timer = undefined;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // mid-save (renamed away); the next event reads it
    }
    if (text === last) return;
    last = text;
    let config: Config;
    try {
      config = readConfig(file);
    } catch (error) {
      warn(`${(error as Error).message} Keeping the servers as they were.`);
      return;
    }
    apply(config).then(
      () => warn(`reloaded ${file}: ${Object.keys(config.servers).join(', ') || 'no servers'}`),
      (error: unknown) => warn(`reloading ${file} failed: ${(error as Error).message}`),
    );
  };
  // The directory is watched, not the file: editors replace files by renaming over them.
  const watcher = watch(resolve(file, '..'), (_event, name) => {
    if (name !== null && resolve(file, '..', String(name)) !== file) return;
    clearTimeout(timer);
    timer = setTimeout(reload, 100);
  });
  watcher.unref();
}

/** `/healthz` answers with each upstream's state: 200 while all are up, else 503. */
function answerHealth(
  server: import('node:http').Server,
  health: () => readonly { readonly state: string }[],
): void {
  const [mcp] = server.listeners('request') as ((
    req: IncomingMessage,
    res: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.split('?')[0] !== '/healthz') return mcp(req, res);
    const upstreams = health();
    const up = upstreams.every((u) => u.state === 'up');
    res.writeHead(up ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify({ status: up ? 'ok' : 'degraded', upstreams }));
  });
}
