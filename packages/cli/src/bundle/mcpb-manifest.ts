import type { ServerSetting } from '@mcp-fw/core';

/** The MCPB manifest version written: the newest Claude Desktop and `mcpb validate` both accept. */
export const MCPB_MANIFEST_VERSION = '0.3';

/** An icon as `serverInfo` carries it (SEP-973). */
export interface ServerIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: string;
}

/** What the manifest is made of: the server as a client sees it, plus package.json. */
export interface McpbInputs {
  readonly serverInfo: {
    readonly name: string;
    readonly version: string;
    readonly title?: string;
    readonly description?: string;
    readonly websiteUrl?: string;
    readonly icons?: readonly ServerIcon[];
  };
  readonly instructions?: string;
  readonly settings: Readonly<Record<string, ServerSetting>>;
  readonly tools: readonly { readonly name: string; readonly description?: string }[];
  readonly prompts: readonly {
    readonly name: string;
    readonly description?: string;
    readonly arguments?: readonly { readonly name: string }[];
  }[];
  readonly packageJson: Record<string, unknown>;
  /** The bundled server, relative to the bundle root (`server/server.bundle.cjs`). */
  readonly entryPoint: string;
}

/** A manifest plus the files it points at that must go into the bundle (icons from `data:` URIs). */
export interface McpbManifest {
  readonly manifest: Record<string, unknown>;
  readonly files: Readonly<Record<string, Uint8Array>>;
}

/** Raised for a server the manifest cannot describe; `fix` says what to add. */
export class McpbManifestError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'McpbManifestError';
  }
}

/**
 * The `manifest.json` of an MCP bundle (MCPB 0.3) for a server: `mcp_config` starts the bundled
 * file with `node`, each declared setting becomes a `user_config` entry passed to the server as
 * its environment variable, and tools and prompts are listed as the server lists them.
 */
export function mcpbManifest(inputs: McpbInputs): McpbManifest {
  const { serverInfo, packageJson } = inputs;
  const description =
    serverInfo.description ?? stringField(packageJson, 'description') ?? undefined;
  if (!description)
    throw new McpbManifestError(
      'An MCP bundle needs a description, and neither createServer nor package.json has one',
      'Add description to createServer({ ... }) or to package.json.',
    );
  const author = authorOf(packageJson.author);
  if (!author)
    throw new McpbManifestError(
      'An MCP bundle names its author, and package.json has no author',
      'Add "author": "Your Name <you@example.com>" to package.json.',
    );
  const userConfig = Object.fromEntries(
    Object.entries(inputs.settings).map(([name, setting]) => [
      name,
      {
        type: 'string',
        title: name,
        description: setting.description,
        required: setting.required ?? true,
        ...(setting.secret && { sensitive: true }),
        ...(setting.default !== undefined && { default: setting.default }),
      },
    ]),
  );
  // The host substitutes each `${user_config.X}` with what the user entered at install.
  const env = Object.fromEntries(
    Object.keys(inputs.settings).map((name) => [name, `\${user_config.${name}}`]),
  );
  const files: Record<string, Uint8Array> = {};
  const icons = bundleIcons(serverInfo.icons ?? [], files);
  const repository = repositoryOf(packageJson.repository);
  const homepage = serverInfo.websiteUrl ?? stringField(packageJson, 'homepage');
  const manifest: Record<string, unknown> = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: serverInfo.name,
    ...(serverInfo.title && { display_name: serverInfo.title }),
    version: serverInfo.version,
    description,
    ...(inputs.instructions && { long_description: inputs.instructions }),
    author,
    ...(repository && { repository }),
    ...(homepage && { homepage }),
    ...icons,
    server: {
      type: 'node',
      entry_point: inputs.entryPoint,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${inputs.entryPoint}`],
        ...(Object.keys(env).length > 0 && { env }),
      },
    },
    ...(inputs.tools.length > 0 && {
      tools: inputs.tools.map((tool) => ({
        name: tool.name,
        ...(tool.description && { description: tool.description }),
      })),
    }),
    ...(inputs.prompts.length > 0 && {
      // MCPB requires a text per prompt; the messages come from the server at run time, so the
      // text is the prompt's description and prompts_generated says the server has the last word.
      prompts: inputs.prompts.map((prompt) => ({
        name: prompt.name,
        ...(prompt.description && { description: prompt.description }),
        ...(prompt.arguments?.length && { arguments: prompt.arguments.map((a) => a.name) }),
        text: prompt.description ?? prompt.name,
      })),
      prompts_generated: true,
    }),
    ...(Object.keys(userConfig).length > 0 && { user_config: userConfig }),
    compatibility: { runtimes: { node: '>=20.19.0' } },
  };
  return { manifest, files };
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** package.json's author, a string `Name <email> (url)` or an object, as MCPB's `author`. */
function authorOf(value: unknown): Record<string, string> | undefined {
  if (typeof value === 'string') {
    const match = /^\s*([^<(]+?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?\s*$/.exec(value);
    if (!match?.[1]) return undefined;
    return {
      name: match[1],
      ...(match[2] && { email: match[2] }),
      ...(match[3] && { url: match[3] }),
    };
  }
  if (value && typeof value === 'object') {
    const { name, email, url } = value as Record<string, unknown>;
    if (typeof name !== 'string' || !name) return undefined;
    return {
      name,
      ...(typeof email === 'string' && { email }),
      ...(typeof url === 'string' && { url }),
    };
  }
  return undefined;
}

function repositoryOf(value: unknown): { type: string; url: string } | undefined {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) return { type: 'git', url: value };
  if (value && typeof value === 'object') {
    const { type, url } = value as Record<string, unknown>;
    if (typeof url === 'string' && /^https?:\/\//.test(url.replace(/^git\+/, '')))
      return { type: typeof type === 'string' ? type : 'git', url: url.replace(/^git\+/, '') };
  }
  return undefined;
}

/**
 * MCPB icons: a `data:image/png` icon becomes a file in the bundle (hosts show local files
 * only), the first of them the bundle's `icon`; an https icon is listed as it is. MCPB wants
 * one `WxH` size per entry, so an icon without a size is listed only as `icon`.
 */
function bundleIcons(
  icons: readonly ServerIcon[],
  files: Record<string, Uint8Array>,
): Record<string, unknown> {
  const listed: { src: string; size: string; theme?: string }[] = [];
  let icon: string | undefined;
  icons.forEach((entry, index) => {
    let src = entry.src;
    const png = /^data:image\/png;base64,(.*)$/s.exec(entry.src);
    if (png) {
      src = `icons/icon-${index}.png`;
      files[src] = Buffer.from(png[1]!, 'base64');
      icon ??= src;
    } else if (!/^https:\/\//.test(entry.src)) return;
    for (const size of entry.sizes ?? []) {
      if (/^\d+x\d+$/.test(size))
        listed.push({ src, size, ...(entry.theme && { theme: entry.theme }) });
    }
  });
  return { ...(icon && { icon }), ...(listed.length > 0 && { icons: listed }) };
}
