import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CliError } from '../output/cli-error.js';
import type { Project } from './project.js';

/** How to run a project's own `tsc`: the command and the arguments that come before tsc's. */
export interface TscCommand {
  readonly command: string;
  readonly prefix: readonly string[];
  readonly version: string;
}

/** What one `tsc` run printed and how it exited. */
export interface TscRun {
  readonly code: number;
  readonly output: string;
}

/**
 * The project's own TypeScript compiler, so that dev, inspect and build compile exactly as the
 * project does. TypeScript 7 ships a native binary: run it directly rather than through its Node
 * wrapper, which would cost a second process start on every reload.
 */
export function findTsc(project: Project): TscCommand {
  const require = createRequire(join(project.dir, 'package.json'));
  let manifest: string;
  try {
    manifest = require.resolve('typescript/package.json');
  } catch {
    throw new CliError(
      `TypeScript is not installed in ${project.dir}.`,
      'Install it in the project: npm install --save-dev typescript',
    );
  }
  const root = dirname(manifest);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const native = nativeBinary(root);
  if (native) return { command: native, prefix: [], version };
  return { command: process.execPath, prefix: [join(root, 'bin', 'tsc')], version };
}

function nativeBinary(typescriptRoot: string): string | undefined {
  try {
    const require = createRequire(join(typescriptRoot, 'package.json'));
    const pkg = require.resolve(
      `@typescript/typescript-${process.platform}-${process.arch}/package.json`,
    );
    const exe = join(dirname(pkg), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
    return existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

/** Runs tsc with `args` in `cwd`, collecting what it prints (diagnostics go to stdout). */
export function runTsc(tsc: TscCommand, args: readonly string[], cwd: string): Promise<TscRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsc.command, [...tsc.prefix, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
