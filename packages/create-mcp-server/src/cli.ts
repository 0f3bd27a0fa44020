import { join } from 'node:path';
import { USAGE, UsageError, parseFlags } from './args.js';
import { nextSteps } from './next-steps.js';
import { detectPackageManager } from './package-manager.js';
import { checkFlags, makePlan, needsAnswers, type Plan } from './plan.js';
import { CancelledError, InputEndedError, Prompter } from './prompt.js';
import { scaffold } from './scaffold.js';
import { initGit, install } from './setup.js';
import { templatesDir } from './templates.js';

/** Where the command reads and writes; the process's own streams unless a caller says otherwise. */
export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Runs `create-mcp-server` with the arguments after the command name, and returns the exit
 * code: 0 when the project was created (and set up as asked), 1 when nothing was written because
 * of bad input, 130 when the user cancelled.
 *
 * @example
 * ```ts
 * process.exitCode = await main(['my-server', '--template', 'full', '--no-install']);
 * ```
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`create-mcp-server: ${message}\n`);
    return 1;
  };
  let plan: Plan;
  try {
    const flags = parseFlags(argv);
    if (flags.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    checkFlags(flags, io.cwd);
    const prompter = flags.yes || !needsAnswers(flags) ? undefined : new Prompter(io.stdin, io.stdout, io.stdin.isTTY === true);
    try {
      plan = await makePlan(flags, io.cwd, prompter);
    } finally {
      prompter?.close();
    }
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\nRun create-mcp-server --help for the options.`);
    if (error instanceof InputEndedError) {
      return fail(`${error.message}; give the answers as options (--help lists them), or --yes for the defaults`);
    }
    if (error instanceof CancelledError) {
      io.stderr.write('\nCancelled; nothing was written.\n');
      return 130;
    }
    throw error;
  }
  return create(plan, io);
}

function create(plan: Plan, io: Io): number {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const pm = detectPackageManager(io.env.npm_config_user_agent);
  say(`\nCreating ${plan.packageName} in ${plan.dir} (template ${plan.template.name}, ${plan.transport})`);
  try {
    scaffold({ from: join(templatesDir(), plan.template.name), to: plan.dir, packageName: plan.packageName, transport: plan.transport });
  } catch (error) {
    io.stderr.write(`create-mcp-server: could not write the project: ${(error as Error).message}\n`);
    return 1;
  }
  let status = 0;
  if (plan.git) {
    const git = initGit(plan.dir);
    if (git === 'inside-repository') say('Already inside a git repository: no new one initialized.');
    else if (git.ok) say('Initialized a git repository.');
    else io.stderr.write(`create-mcp-server: could not initialize git: ${git.reason}\n`);
  }
  let installed = false;
  if (plan.install) {
    say(`Installing the dependencies with ${pm}…`);
    const result = install(plan.dir, pm);
    installed = result.ok;
    if (!result.ok) {
      io.stderr.write(`create-mcp-server: installing the dependencies failed: ${result.reason}\n`);
      status = 1;
    }
  }
  say(`\nDone.\n\n${nextSteps(plan, pm, io.cwd, installed)}`);
  return status;
}

function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
