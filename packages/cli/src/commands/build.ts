import { spawn } from 'node:child_process';
import { dirname, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { styleFor } from '../output/style.js';
import { bundleEntry } from '../bundle/bundle-entry.js';
import { bundleServer, type BundleResult } from '../bundle/bundle-server.js';
import { writeMcpb } from '../bundle/mcpb.js';
import { projectIn, type Project } from '../project/project.js';
import { decoratorFix } from '../project/decorator-errors.js';
import { readConfig } from '../project/ts-config.js';
import { findTsc } from '../project/typescript.js';
import { DEFAULT_PORT, examples } from './options.js';
import { bundleViews } from '../views/bundle-views.js';

/** `mcp-fw build`: compiles the project in the current directory with its own tsc. */
export function buildCommand(program: Command): void {
  program
    .command('build')
    .description(
      'Compile the project in this directory to JavaScript with declarations (its own tsc, type-checked)',
    )
    .option('-p, --project <tsconfig>', 'the tsconfig to build', 'tsconfig.json')
    .option(
      '--bundle',
      'also bundle the server into one file, started through a V8 code cache (fast cold starts)',
    )
    .option(
      '--entry <file>',
      'with --bundle: the module to bundle (default: package.json bin or main, else dist/server.js)',
    )
    .option('--external <packages...>', 'with --bundle: packages to leave in node_modules')
    .option(
      '--mcpb',
      'also pack the bundle into <name>-<version>.mcpb, an MCP bundle for one-click install in hosts (implies --bundle)',
    )
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw build', 'tsconfig.json → dist/ (outDir), with .d.ts files'],
        ['mcp-fw build -p tsconfig.build.json', 'another configuration'],
        [
          'mcp-fw build --bundle',
          'also dist/server.bundle.cjs, started by node dist/server.launch.cjs',
        ],
        ['mcp-fw build --mcpb', 'also calculator-0.1.0.mcpb: manifest.json and the bundled server'],
      ])}\nProjects with references are built with tsc -b; type errors fail the build.\n`,
    )
    .action(async (options: BuildOptions) => {
      // Checked before compiling: a bundle's server runs without node_modules.
      if (options.mcpb && options.external?.length)
        throw new CliError(
          `--mcpb with --external ${options.external.join(' ')}: an MCP bundle holds no node_modules, so an external package would be missing when the host starts the server.`,
          'Drop --external, so those packages are bundled into the server.',
          2,
        );
      const started = performance.now();
      const project = projectIn(process.cwd(), options.project);
      const tsc = findTsc(project);
      const config = await readConfig(tsc, project.tsconfig);
      // tsc -b builds referenced projects first; composite projects emit declarations anyway.
      const args = config.hasReferences
        ? ['-b', project.tsconfig]
        : ['-p', project.tsconfig, '--declaration'];
      // Shown as it comes, and kept: decorator errors get the tsconfig fix named.
      let printed = '';
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn(tsc.command, [...tsc.prefix, ...args], {
          cwd: project.dir,
          stdio: ['inherit', 'pipe', 'pipe'],
        });
        child.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString('utf8');
          process.stdout.write(chunk);
        });
        child.stderr.on('data', (chunk: Buffer) => {
          printed += chunk.toString('utf8');
          process.stderr.write(chunk);
        });
        child.once('error', reject);
        child.once('close', (status) => resolve(status ?? 1));
      });
      if (code !== 0) {
        const fix = decoratorFix(printed, config);
        throw new CliError(
          `TypeScript reported errors (above)${fix ? ', among them decorator errors' : ''}, so the build is not complete.`,
          fix ?? 'Fix them and run mcp-fw build again.',
        );
      }
      const out = config.outDir
        ? relative(process.cwd(), config.outDir) || '.'
        : 'beside the sources';
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const style = styleFor(process.stderr);
      process.stderr.write(
        `${style.green('Built')} ${relative(process.cwd(), project.tsconfig)} into ${out}/ in ${seconds} s (TypeScript ${tsc.version}).\n`,
      );
      // MCP Apps views (views/<name>/): one self-contained HTML document each, beside the build.
      for (const view of await bundleViews(project.dir, config.outDir ?? project.dir)) {
        const kb = (view.bytes / 1024).toFixed(0);
        process.stderr.write(
          `${style.green('Bundled')} view ${view.name} into ${relative(process.cwd(), view.file)} (${kb} KB).\n`,
        );
      }
      if (options.bundle || options.mcpb) {
        const bundled = await bundleStep(project, config.outDir, options);
        if (options.mcpb) await mcpbStep(project, bundled);
      }
    });
}

interface BuildOptions {
  project: string;
  bundle?: boolean;
  entry?: string;
  external?: string[];
  mcpb?: boolean;
}

async function bundleStep(
  project: Project,
  outDir: string | undefined,
  options: BuildOptions,
): Promise<{ entry: string; result: BundleResult }> {
  const started = performance.now();
  const entry = await bundleEntry(project, outDir, options.entry);
  const result = await bundleServer({ entry, outDir: dirname(entry), external: options.external });
  const shown = (file: string) => relative(process.cwd(), file);
  const kb = (result.bundleBytes / 1024).toFixed(0);
  const ms = (performance.now() - started).toFixed(0);
  const style = styleFor(process.stderr);
  process.stderr.write(
    `${style.green('Bundled')} ${shown(entry)} into ${shown(result.bundleFile)} (${kb} KB) in ${ms} ms.\n` +
      (result.format === 'esm'
        ? 'It has top-level await, so it is an ES module: its code cache needs Node 22.1 or later.\n'
        : '') +
      `Start it with: ${startHint(shown(result.launcherFile), result.serves ? servesHttp(project) : undefined)}\n`,
  );
  return { entry, result };
}

/** `--mcpb`: the bundle and a manifest made from the server's own metadata, zipped. */
async function mcpbStep(
  project: Project,
  { entry, result }: { entry: string; result: BundleResult },
): Promise<void> {
  if (!result.serves)
    throw new CliError(
      `${relative(process.cwd(), entry)} serves the server itself instead of exporting it, so mcp-fw build --mcpb cannot read its tools and settings.`,
      'Export the server (export const server = createServer(...)) and pass that module: mcp-fw build --mcpb --entry dist/server.js.',
    );
  const written = await writeMcpb({
    entry,
    bundleFile: result.bundleFile,
    packageJson: project.packageJson?.data ?? {},
    outDir: project.dir,
    projectDir: project.dir,
  });
  const kb = (written.bytes / 1024).toFixed(0);
  process.stderr.write(
    `${styleFor(process.stderr).green('Packed')} ${relative(process.cwd(), written.file)} (${kb} KB, MCPB ${String(written.manifest.manifest_version)}). Check it with: npx @anthropic-ai/mcpb info ${relative(process.cwd(), written.file)}\n`,
  );
}

/** Whether the project is an HTTP server: its `start` script serves `--http`. */
function servesHttp(project: Project): boolean {
  const scripts = project.packageJson?.data.scripts as Record<string, unknown> | undefined;
  return typeof scripts?.start === 'string' && /(^|\s)--http(\s|$)/.test(scripts.start);
}

/** How to start the launcher, for the transport the project serves. */
function startHint(launcher: string, http: boolean | undefined): string {
  if (http === undefined) return `node ${launcher}`;
  if (http)
    return `node ${launcher} --http (Streamable HTTP at http://127.0.0.1:$PORT/mcp, port ${DEFAULT_PORT} when PORT is unset)`;
  return `node ${launcher} (stdio; --http [--port N] for Streamable HTTP)`;
}
