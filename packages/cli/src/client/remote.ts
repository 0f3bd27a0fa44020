import type { CommandTarget, ConnectOptions, McpClient } from '@mcp-fw/client';
import { CliError, describeError } from '../output/cli-error.js';
import type { ServerLists } from './lists.js';
import type {
  InitializeResult,
  ListedPrompt,
  ListedResource,
  ListedTemplate,
  ListedTool,
} from './wire.js';

// `mcp-fw call` and `inspect` reach a running server as well as a source file: an http(s) URL,
// or a command line to start (a word with a space in it), through @mcp-fw/client.

/** A server reached through @mcp-fw/client: a URL or a command to start. */
export type RemoteTarget = URL | CommandTarget;

/**
 * The server `word` names when it is not a file: an http(s) URL, or a command line (it holds
 * whitespace: `"npx -y @modelcontextprotocol/server-everything"`). Undefined for anything else.
 */
export function remoteTarget(word: string | undefined): RemoteTarget | undefined {
  if (word === undefined) return undefined;
  if (/^https?:\/\//i.test(word)) {
    try {
      return new URL(word);
    } catch {
      throw new CliError(
        `"${word}" is not a valid URL.`,
        'Give the server’s full URL, e.g. https://example.com/mcp.',
        2,
      );
    }
  }
  if (!/\s/.test(word.trim())) return undefined;
  const [command, ...args] = splitCommandLine(word);
  return { command, args };
}

/** A command line split into words as a POSIX shell would, for quotes and backslashes only. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quote)
    throw new CliError(`The command line ${line} has an unclosed ${quote}.`, 'Close the quote.', 2);
  if (started) words.push(word);
  return words;
}

/** `--header "Name: value"`, repeated, as one object; a malformed one is refused up front. */
export function parseHeaders(values: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values ?? []) {
    const colon = value.indexOf(':');
    const name = colon > 0 ? value.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new CliError(
        `--header "${value}" is not "Name: value".`,
        'Write each header as --header "Name: value", e.g. --header "Authorization: Bearer <token>".',
        2,
      );
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * @mcp-fw/client, loaded only when a command reaches a running server: it is an optional
 * dependency of the CLI, so a project that never does installs without it.
 */
async function loadClient(): Promise<typeof import('@mcp-fw/client')> {
  try {
    return await import('@mcp-fw/client');
  } catch (error) {
    throw new CliError(
      `Reaching a server by URL or command needs @mcp-fw/client, which is not installed (${describeError(error)}).`,
      'Install it beside the CLI: npm install -D @mcp-fw/client',
    );
  }
}

/** How the target is named in messages. */
export function describeTarget(target: RemoteTarget): string {
  return target instanceof URL ? target.href : [target.command, ...(target.args ?? [])].join(' ');
}

/** Connects to the target; a failure is a CliError naming the target and what to check. */
export async function connectRemote(
  target: RemoteTarget,
  options: ConnectOptions,
  headerValues?: readonly string[],
): Promise<McpClient> {
  const headers = parseHeaders(headerValues);
  if (!(target instanceof URL) && Object.keys(headers).length > 0)
    throw new CliError(
      '--header applies to a URL, not to a command.',
      'Drop --header, or give the server’s URL.',
      2,
    );
  const { connect } = await loadClient();
  try {
    return await connect(target, { ...options, headers });
  } catch (error) {
    throw new CliError(
      `Could not connect to ${describeTarget(target)}: ${describeError(error)}`,
      target instanceof URL
        ? 'Check that the server runs at that URL (and --header for its credentials).'
        : 'Check that the command starts an MCP server on stdio (try running it yourself).',
    );
  }
}

/** What `inspect` prints of a server reached through the client: its description. */
export function describedServer(client: McpClient): InitializeResult {
  return {
    protocolVersion: client.protocolVersion,
    capabilities: client.server.capabilities as Record<string, unknown>,
    serverInfo: (client.server.serverInfo ?? {
      name: '(unnamed)',
      version: '',
    }) as InitializeResult['serverInfo'],
    ...(client.server.instructions === undefined
      ? {}
      : { instructions: client.server.instructions }),
  } as InitializeResult;
}

/** Every list the server offers (by its capabilities), all pages joined. */
export async function remoteLists(client: McpClient): Promise<ServerLists> {
  const capabilities = client.server.capabilities;
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.tools ? client.listTools() : [],
    capabilities.prompts ? client.listPrompts() : [],
    capabilities.resources ? client.listResources() : [],
    capabilities.resources ? client.listResourceTemplates().catch(() => []) : [],
  ]);
  return {
    tools: tools as unknown as ListedTool[],
    prompts: prompts as unknown as ListedPrompt[],
    resources: resources as unknown as ListedResource[],
    resourceTemplates: resourceTemplates as unknown as ListedTemplate[],
  };
}
