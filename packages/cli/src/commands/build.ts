import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { styleFor } from '../output/style.js';
import { bundleEntry } from '../bundle/bundle-entry.js';
import { bundleServer, type BundleResult } from '../bundle/bundle-server.js';
import { writeMcpb } from '../bundle/mcpb.js';
import { bundleWorker, workerBundleFile } from '../bundle/worker-bundle.js';
import {
  readWranglerConfig,
  type WranglerConfig,
  writeWranglerConfig,
} from '../bundle/wrangler-config.js';
import { builtFile } from '../project/built-file.js';
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
      'with --bundle or --target workers: the module to bundle (default: package.json bin or main, else dist/server.js; for workers first the wrangler main, then dist/worker.js)',
    )
    .option('--external <packages...>', 'with --bundle: packages to leave in node_modules')
    .option(
      '--target <target>',
      'node (default) or workers: also bundle a Cloudflare module worker (dist/worker.bundle.mjs) and write wrangler.jsonc if absent',
      'node',
    )
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
        [
          'mcp-fw build --target workers',
          'also dist/worker.bundle.mjs for Cloudflare Workers; then: npx wrangler deploy',
        ],
      ])}\nProjects with references are built with tsc -b; type errors fail the build.\n`,
    )
    .action(async (options: BuildOptions) => {
      if (options.target !== 'node' && options.target !== 'workers')
        throw new CliError(
          `--target ${options.target} is not a target mcp-fw build knows.`,
          'Use --target node (the default) or --target workers (Cloudflare Workers).',
          2,
        );
      if (options.target === 'workers' && (options.bundle || options.mcpb))
        throw new CliError(
          `--target workers with ${options.mcpb ? '--mcpb' : '--bundle'}: those build a Node launcher, and the Workers bundle is a module worker of its own.`,
          'Run them as two builds: mcp-fw build --target workers, and mcp-fw build --bundle.',
          2,
        );
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
      if (options.target === 'workers') await workersStep(project, config.outDir, options);
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
  target: string;
}

/** `--target workers`: the module worker, and wrangler.jsonc when the project has no config. */
async function workersStep(
  project: Project,
  outDir: string | undefined,
  options: BuildOptions,
): Promise<void> {
  const started = performance.now();
  const existing = readWranglerConfig(project.dir);
  const entry = await workerEntry(project, outDir, options.entry, existing);
  const sessions = existing?.durableObjects[0] ?? {
    name: 'MCP_SESSIONS',
    className: 'McpSessions',
  };
  const result = await bundleWorker({
    entry,
    outFile: workerBundleFile(entry),
    projectDir: project.dir,
    sessions,
    durableObjectClasses: existing?.durableObjects.map((o) => o.className),
  });
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const style = styleFor(process.stderr);
  const kb = (result.bytes / 1024).toFixed(0);
  const ms = (performance.now() - started).toFixed(0);
  let deploy = 'npx wrangler deploy';
  let config = '';
  if (!existing) {
    const name = String(project.packageJson?.data.name ?? basename(project.dir))
      .replace(/^@[^/]+\//, '')
      .replace(/[^a-z0-9-]/gi, '-')
      .toLowerCase();
    // A module worker without the sessions class serves 2026-07-28 only: no binding for it.
    const held = result.exports.includes(sessions.className) ? sessions : undefined;
    const file = writeWranglerConfig(project.dir, { name, main: result.file, sessions: held });
    config = `${style.green('Wrote')} ${shown(file)} (${held ? `legacy sessions in Durable Objects: ${held.name} → ${held.className}` : `2026-07-28 only: the worker exports no ${sessions.className} class for legacy sessions`}).\n`;
  } else if (existing.main !== result.file) {
    deploy = `npx wrangler deploy ${shown(result.file)} --no-bundle`;
    config = `${shown(existing.file)} is kept as it is${existing.main ? ` (its main is ${shown(existing.main)})` : ''}.\n`;
  }
  process.stderr.write(
    `${style.green('Bundled')} ${shown(entry)} into ${shown(result.file)} (${kb} KB, a module worker${result.kind === 'server' ? ' serving the exported server' : ''}) in ${ms} ms.\n` +
      config +
      `Deploy it with: ${deploy} (wrangler needs Node 22 or later).\n`,
  );
}

/**
 * The module to bundle for Workers: --entry, else the wrangler config's main (its build output),
 * else worker.js in the build output, else what --bundle would take (a module exporting a server).
 */
async function workerEntry(
  project: Project,
  outDir: string | undefined,
  entry: string | undefined,
  config: WranglerConfig | undefined,
): Promise<string> {
  if (entry !== undefined) return bundleEntry(project, outDir, entry);
  if (config?.main && existsSync(config.main) && !/\.bundle\.mjs$/.test(config.main))
    return builtFile(config.main);
  const worker = outDir && join(outDir, 'worker.js');
  if (worker && existsSync(worker)) return worker;
  return bundleEntry(project, outDir, undefined);
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
      (result.lazyFiles.length > 0
        ? `What core loads on first use (yaml, Ajv, ...) is in ${shown(dirname(result.lazyFiles[0]!))}/: ship it with the bundle.\n`
        : '') +
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
    lazyFiles: result.lazyFiles,
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
