import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, run, type Finished } from './cli.ts';

/** The framework packages a generated project depends on, by npm name → workspace folder. */
export const FRAMEWORK_PACKAGES: Record<string, string> = {
  '@mcp-fw/core': 'packages/core',
  '@mcp-fw/cli': 'packages/cli',
};

/**
 * The environment of the npm commands we run: without the `npm_*` variables of the `npm test`
 * that may be running us, which a nested npm would read as its own configuration (its prefix,
 * its workspace), and without colours.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'FORCE_COLOR'),
  );
  // Plain output, so the assertions read it as text.
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs npm in `cwd` with a clean environment. */
export function npm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return run('npm', args, { cwd, env: cleanEnv(env), replaceEnv: true });
}

/** `npm pack`s the workspace folders into `destination`; returns npm name → tarball path. */
export async function pack(folders: readonly string[], destination: string): Promise<Record<string, string>> {
  const args = ['pack', '--json', '--pack-destination', destination, ...folders.flatMap((f) => ['-w', f])];
  const result = await npm(args, REPO_ROOT);
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stdout}${result.stderr}`);
  const packed = JSON.parse(result.stdout) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map((p) => [p.name, join(destination, p.filename)]));
}

/**
 * Points the project's framework dependencies at the tarballs (overrides too, for the
 * framework's dependencies on each other); everything else still comes from the registry.
 */
export function useTarballs(projectDir: string, tarballs: Record<string, string>): void {
  const path = join(projectDir, 'package.json');
  const pkg = JSON.parse(readFileSync(path, 'utf8'));
  const overrides: Record<string, string> = {};
  for (const [name, tarball] of Object.entries(tarballs)) {
    if (!(name in FRAMEWORK_PACKAGES)) continue;
    const spec = `file:${tarball}`;
    for (const field of ['dependencies', 'devDependencies']) if (pkg[field]?.[name]) pkg[field][name] = spec;
    overrides[name] = spec;
  }
  pkg.overrides = overrides;
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** A server process, and how to stop it with everything it started. */
export interface StartedServer {
  url: URL;
  stop(): void;
}

/**
 * Starts a server in `dir` (a command that announces `MCP server listening on <url>` on stderr,
 * like `npm start` or `node dist/main.js`) and resolves once it listens.
 */
export function startHttpServer(dir: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<StartedServer> {
  // Its own process group: killing npm alone would leave the server it started running.
  const child = spawn(command, args, { cwd: dir, env: cleanEnv(env), detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
  };
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before listening:\n${stderr}`)));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /MCP server listening on (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ url: new URL(url), stop });
    });
  });
}
