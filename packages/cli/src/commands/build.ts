import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { styleFor } from '../output/style.js';
import { projectIn } from '../project/project.js';
import { readConfig } from '../project/ts-config.js';
import { findTsc } from '../project/typescript.js';
import { examples } from './options.js';

/** `mcp-fw build`: compiles the project in the current directory with its own tsc. */
export function buildCommand(program: Command): void {
  program
    .command('build')
    .description('Compile the project in this directory to JavaScript with declarations (its own tsc, type-checked)')
    .option('-p, --project <tsconfig>', 'the tsconfig to build', 'tsconfig.json')
    .addHelpText(
      'after',
      examples([
        ['mcp-fw build', 'tsconfig.json → dist/ (outDir), with .d.ts files'],
        ['mcp-fw build -p tsconfig.build.json', 'another configuration'],
      ]) + '\nProjects with references are built with tsc -b; type errors fail the build.\n',
    )
    .action(async (options: { project: string }) => {
      const started = performance.now();
      const project = projectIn(process.cwd(), options.project);
      const tsc = findTsc(project);
      const config = await readConfig(tsc, project.tsconfig);
      // tsc -b builds referenced projects first; composite projects emit declarations anyway.
      const args = config.hasReferences ? ['-b', project.tsconfig] : ['-p', project.tsconfig, '--declaration'];
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn(tsc.command, [...tsc.prefix, ...args], { cwd: project.dir, stdio: 'inherit' });
        child.once('error', reject);
        child.once('close', (status) => resolve(status ?? 1));
      });
      if (code !== 0) {
        throw new CliError('TypeScript reported errors (above), so the build is not complete.', 'Fix them and run mcp-fw build again.');
      }
      const out = config.outDir ? relative(process.cwd(), config.outDir) || '.' : 'beside the sources';
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const style = styleFor(process.stderr);
      process.stderr.write(`${style.green('Built')} ${relative(process.cwd(), project.tsconfig)} into ${out}/ in ${seconds} s (TypeScript ${tsc.version}).\n`);
    });
}
