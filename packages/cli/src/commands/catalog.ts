import type { Command } from 'commander';

/** One `mcp-fw` command as the top-level help lists it, and how to load its module. */
export interface CommandEntry {
  /** The name typed after `mcp-fw`. */
  readonly name: string;
  /** The line's left column in `mcp-fw --help`: the name, `[options]` and the arguments. */
  readonly term: string;
  /** The command's description, exactly as its module registers it. */
  readonly description: string;
  /** Imports the command's module and returns the function that registers it. */
  readonly load: () => Promise<(program: Command) => void>;
}

// Why a table: a command's module imports what the command runs (the TypeScript compiler, the
// official clients, esbuild, the dev supervisor…), which cost `mcp-fw --help` most of its CPU
// when every module was loaded up front. main() loads only the module of the command typed and
// lists the others from here; packages/cli/test/lazy-commands.test.ts checks each line against
// its module, so a description changed in one place and not the other fails there.
/** Every command, in the order `mcp-fw --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'dev',
    term: 'dev [options] [entry]',
    description: 'Run a server with hot reload: edits apply without the client reconnecting',
    load: async () => (await import('./dev.js')).devCommand,
  },
  {
    name: 'inspect',
    term: 'inspect [options] [entry]',
    description:
      'Print the tools, resources, templates and prompts a server offers, with their schemas',
    load: async () => (await import('./inspect.js')).inspectCommand,
  },
  {
    name: 'call',
    term: 'call [options] [entry] [tool] [arguments...]',
    description:
      'Run one tool and print its result: in process from a source file, or on a running server by URL or command',
    load: async () => (await import('./call.js')).callCommand,
  },
  {
    name: 'client-types',
    term: 'client-types [options] [server]',
    description:
      "Write TypeScript types for a server's tools (from their input and output schemas), for typedClient<Tools>()",
    load: async () => (await import('./client-types.js')).clientTypesCommand,
  },
  {
    name: 'build',
    term: 'build [options]',
    description:
      'Compile the project in this directory to JavaScript with declarations (its own tsc, type-checked)',
    load: async () => (await import('./build.js')).buildCommand,
  },
  {
    name: 'start',
    term: 'start [options] <entry>',
    description: 'Serve the built server (production): stdio, or Streamable HTTP with --http',
    load: async () => (await import('./start.js')).startCommand,
  },
  {
    name: 'install',
    term: 'install [options] <client> [entry]',
    description:
      'Add the server to a client’s MCP configuration (Claude Desktop, Cursor or VS Code)',
    load: async () => (await import('./install.js')).installCommand,
  },
  {
    name: 'proxy',
    term: 'proxy [options] <target...>',
    description:
      'Serve MCP servers through one (any era in, any era out): an mcpServers file, a URL or a command',
    load: async () => (await import('./proxy.js')).proxyCommand,
  },
  {
    name: 'publish',
    term: 'publish [options] [entry]',
    description:
      "Write server.json for the MCP registry from the server's metadata, validated against the 2025-12-11 schema",
    load: async () => (await import('./publish.js')).publishCommand,
  },
  {
    name: 'auth',
    term: 'auth',
    description: 'OAuth tools for protected MCP servers',
    load: async () => (await import('./auth-doctor.js')).authCommand,
  },
  {
    name: 'surface',
    term: 'surface',
    description:
      'Record the tools, resources and prompts a server serves (per protocol revision) in a lock file, and check changes against it',
    load: async () => (await import('./surface.js')).surfaceCommand,
  },
  {
    name: 'openapi',
    term: 'openapi [options] <spec>',
    description:
      'Generate editable decorated classes from an OpenAPI 3.0/3.1 or Swagger 2.0 document: one class per tag, one @Tool per operation, plain types and JSDoc, and a typed fetch layer',
    load: async () => (await import('./openapi.js')).openapiCommand,
  },
];

/**
 * The command `argv` runs: its first word that is not an option (the root's only options, -h
 * and -v, take no value), or the word after `help`. Undefined for `mcp-fw`, `mcp-fw --help`,
 * `mcp-fw help` and an unknown word, which need no command's module.
 */
export function invokedCommand(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.filter((word) => !word.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((entry) => entry.name === name);
}
