import { spawn } from 'node:child_process';

/**
 * The outcome of a setup step: done, or the command that failed, what it printed, how it
 * ended (`reason`), the cause when it is one we recognize, and what to do.
 */
export type StepResult =
  | { ok: true }
  | { ok: false; command: string; output: string; reason: string; cause?: string; fix?: string };

/** A finished command: what it printed (stdout alone, and both streams in order) and how it ended. */
export type CommandRun =
  | { ok: true; stdout: string; output: string }
  | { ok: false; command: string; stdout: string; output: string; reason: string };

/**
 * Runs a command to its end, collecting its output; `echo` also shows it as it comes (an
 * install's progress). The output is kept so that a failure can be reported with it.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    echo?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  },
): Promise<CommandRun> {
  const shown = [command, ...args].join(' ');
  return new Promise((resolve) => {
    // npm is npm.cmd on Windows, which only a shell runs; the shell then needs paths quoted.
    const windows = process.platform === 'win32';
    const words = windows
      ? args.map((arg) => (/[\s"]/.test(arg) ? `"${arg.replaceAll('"', '\\"')}"` : arg))
      : args;
    const child = spawn(command, words, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: windows,
    });
    let stdout = '';
    let output = '';
    const collect = (into: 'stdout' | 'stderr') => (chunk: string) => {
      if (into === 'stdout') stdout += chunk;
      output += chunk;
      options.echo?.[into].write(chunk);
    };
    child.stdout.setEncoding('utf8').on('data', collect('stdout'));
    child.stderr.setEncoding('utf8').on('data', collect('stderr'));
    child.once('error', (error) =>
      resolve({
        ok: false,
        command: shown,
        stdout,
        output,
        reason: `${command} could not be run (${error.message})`,
      }),
    );
    child.once('close', (code, signal) => {
      if (code === 0) resolve({ ok: true, stdout, output });
      else
        resolve({
          ok: false,
          command: shown,
          stdout,
          output,
          reason: signal ? `${shown} was killed by ${signal}` : `${shown} exited with code ${code}`,
        });
    });
  });
}
