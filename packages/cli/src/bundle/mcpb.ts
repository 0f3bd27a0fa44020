import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { connectInProcess } from '../client/in-process.js';
import { fetchLists } from '../client/lists.js';
import { CliError } from '../output/cli-error.js';
import { LoadError, loadServer } from '../project/load-server.js';
import { McpbManifestError, mcpbManifest, type McpbInputs } from './mcpb-manifest.js';

/** What {@link writeMcpb} packs: the built entry (for its metadata) and the bundle made from it. */
export interface McpbRequest {
  /** The built module that exports the server (read for its name, settings, tools, prompts). */
  readonly entry: string;
  /** The bundle of the server (`mcp-fw build --bundle`'s output). */
  readonly bundleFile: string;
  /** The bundle's lazy files (`<name>.lazy/*.cjs`), packed beside it, which requires them. */
  readonly lazyFiles?: readonly string[];
  readonly packageJson: Record<string, unknown>;
  /** Directory the `.mcpb` is written to. */
  readonly outDir: string;
  /** The project directory, to shorten paths in load errors. */
  readonly projectDir?: string;
}

/** The bundle written and what it holds. */
export interface McpbResult {
  readonly file: string;
  readonly bytes: number;
  readonly manifest: Record<string, unknown>;
}

// Fixed entry times: the same build gives the same bytes, so the fileSha256 that
// `mcp-fw publish --mcpb-file` records stays true across rebuilds.
const ENTRY_TIME = new Date(2000, 0, 1);

/**
 * Writes `<name>-<version>.mcpb`: a zip holding `manifest.json` (MCPB 0.3) and the bundled
 * server under `server/`, which needs nothing but Node at run time.
 */
export async function writeMcpb(request: McpbRequest): Promise<McpbResult> {
  const inputs = await describeServer(request.entry, request.projectDir);
  const entryPoint = `server/${basename(request.bundleFile)}`;
  let built: ReturnType<typeof mcpbManifest>;
  try {
    built = mcpbManifest({ ...inputs, packageJson: request.packageJson, entryPoint });
  } catch (error) {
    if (error instanceof McpbManifestError) throw new CliError(error.message, error.fix);
    throw error;
  }
  const { manifest, files } = built;
  const entries: Zippable = {
    'manifest.json': new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
    ...serverEntries(entryPoint, request),
    ...files,
  };
  const zip = zipSync(entries, { level: 9, mtime: ENTRY_TIME });
  const safeName = String(manifest.name).replace(/[^\w.-]+/g, '-');
  const file = join(request.outDir, `${safeName}-${String(manifest.version)}.mcpb`);
  writeFileSync(file, zip);
  return { file, bytes: zip.byteLength, manifest };
}

/** The bundle and its lazy files under `server/`, each with its linked source map if it has one. */
function serverEntries(entryPoint: string, request: McpbRequest): Zippable {
  const entries: Zippable = {};
  const bundleDir = dirname(request.bundleFile);
  for (const [entry, file] of [
    [entryPoint, request.bundleFile],
    ...(request.lazyFiles ?? []).map((lazy) => [
      `server/${relative(bundleDir, lazy).split(sep).join('/')}`,
      lazy,
    ]),
  ] as const) {
    entries[entry] = readFileSync(file);
    // The source map keeps stack traces readable in the host's logs.
    try {
      entries[`${entry}.map`] = readFileSync(`${file}.map`);
    } catch {}
  }
  return entries;
}

/** The server as a client sees it (through core's in-memory channel), plus its declared settings. */
async function describeServer(
  entry: string,
  projectDir: string | undefined,
): Promise<Omit<McpbInputs, 'packageJson' | 'entryPoint'>> {
  let server: Awaited<ReturnType<typeof loadServer>>;
  try {
    server = await loadServer(entry, entry, projectDir);
  } catch (error) {
    if (error instanceof LoadError)
      throw new CliError(
        error.message,
        'mcp-fw build --mcpb reads the server from the module that exports it; pass it with --entry dist/server.js.',
      );
    throw error;
  }
  const client = await connectInProcess(server);
  try {
    const lists = await fetchLists(client.peer);
    const { serverInfo, instructions } = client.initializeResult;
    return {
      serverInfo: serverInfo as McpbInputs['serverInfo'],
      ...(typeof instructions === 'string' && { instructions }),
      settings: server.settings,
      tools: lists.tools,
      prompts: lists.prompts,
    };
  } finally {
    await client.close();
  }
}
