import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, run, tree, type Finished } from './cli.ts';

/**
 * The environment of the npm commands we run: without the `npm_*` variables of the `npm test`
 * that may be running us, which a nested npm would read as its own configuration (its prefix,
 * its workspace), and without colours.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'FORCE_COLOR',
    ),
  );
  // Plain output, so the assertions read it as text.
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs npm in `cwd` with a clean environment. */
export function npm(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Finished> {
  return run('npm', args, { cwd, env: cleanEnv(env), replaceEnv: true });
}

/**
 * `npm pack`s the scaffolder into `destination` (its `prepack` puts the framework packages in
 * it, as for anyone who packs it) and returns the tarball's path.
 */
export async function packScaffolder(destination: string): Promise<string> {
  const result = await npm(
    ['pack', '--json', '--pack-destination', destination, '-w', 'packages/create-mcp-server'],
    REPO_ROOT,
  );
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stdout}${result.stderr}`);
  const [packed] = JSON.parse(result.stdout) as { filename: string }[];
  return join(destination, packed.filename);
}

/** The project's own files: without what the install wrote, and the packed tarballs by name only. */
export function projectFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree(dir))
      .filter(([path]) => !path.startsWith('node_modules/') && path !== 'package-lock.json')
      .map(([path, text]) => [path, path.endsWith('.tgz') ? '(tarball)' : text]),
  );
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
export function startHttpServer(
  dir: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<StartedServer> {
  // Its own process group: killing npm alone would leave the server it started running.
  const child = spawn(command, args, {
    cwd: dir,
    env: cleanEnv(env),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
  };
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(
        new Error(`${command} ${args.join(' ')} exited with ${code} before listening:\n${stderr}`),
      ),
    );
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /MCP server listening on (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ url: new URL(url), stop });
      // A dev watcher outlives a start that failed: a port in use is told at once (onFreePort
      // of test-support/ports.ts then tries a fresh one).
      else if (/already in use/.test(stderr)) {
        stop();
        reject(new Error(`${command} ${args.join(' ')} could not listen:\n${stderr}`));
      }
    });
  });
}
