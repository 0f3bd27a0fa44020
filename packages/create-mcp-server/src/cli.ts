import { join } from 'node:path';
import { USAGE, UsageError, parseFlags } from './args.js';
import { PRESETS } from './idp-presets.js';
import { nextSteps } from './next-steps.js';
import {
  copyPackedFramework,
  dependOnVendored,
  packFramework,
  VENDOR_DIR,
} from './framework-packages.js';
import { frameworkPackages, listed } from './project-packages.js';
import { detectPackageManager, type PackageManager } from './package-manager.js';
import { checkFlags, makePlan, needsAnswers, type Plan } from './plan.js';
import { CancelledError, InputEndedError, Prompter } from './prompt.js';
import { scaffold } from './scaffold.js';
import { initGit, install } from './setup.js';
import type { StepResult } from './run-command.js';
import {
  OAUTH_OVERLAY,
  OWN_AUTHORIZATION_SERVER_OVERLAY,
  REPO_ROOT,
  templatesDir,
} from './templates.js';

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
 * code: 0 when the project was created and set up as asked; 1 when nothing was written because
 * of bad input, or when a setup step (packing the framework, git, the install) failed, which is
 * reported with the command's output and the fix; 130 when the user cancelled.
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
    const prompter =
      flags.yes || !needsAnswers(flags)
        ? undefined
        : new Prompter(io.stdin, io.stdout, io.stdin.isTTY === true);
    try {
      plan = await makePlan(flags, io.cwd, prompter);
    } finally {
      prompter?.close();
    }
  } catch (error) {
    if (error instanceof UsageError)
      return fail(`${error.message}\nRun create-mcp-server --help for the options.`);
    if (error instanceof InputEndedError) {
      return fail(
        `${error.message}; give the answers as options (--help lists them), or --yes for the defaults`,
      );
    }
    if (error instanceof CancelledError) {
      io.stderr.write('\nCancelled; nothing was written.\n');
      return 130;
    }
    throw error;
  }
  return create(plan, io);
}

async function create(plan: Plan, io: Io): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const pm = detectPackageManager(io.env.npm_config_user_agent);
  say(
    `\nCreating ${plan.packageName} in ${plan.dir} (template ${plan.template.name}, ${plan.transport}${plan.auth === 'oauth' ? (plan.idp === 'external' ? ', OAuth' : `, OAuth: its own authorization server, sign-in at ${PRESETS[plan.idp].label}`) : ''})`,
  );
  try {
    scaffold({
      from: join(templatesDir(), plan.template.name),
      to: plan.dir,
      packageName: plan.packageName,
      transport: plan.transport,
      auth: plan.auth,
      idp: plan.idp,
      overlay:
        plan.auth !== 'oauth'
          ? undefined
          : join(
              templatesDir(),
              plan.idp === 'external' ? OAUTH_OVERLAY : OWN_AUTHORIZATION_SERVER_OVERLAY,
            ),
    });
  } catch (error) {
    io.stderr.write(
      `create-mcp-server: could not write the project: ${(error as Error).message}\n`,
    );
    return 1;
  }
  if (plan.packages !== 'registry') {
    const vendored = await vendorFramework(plan, pm, io, say);
    if (!vendored.ok) return failed(vendored, plan, io);
  }
  if (plan.git) {
    const git = initGit(plan.dir);
    if (git === 'inside-repository')
      say('Already inside a git repository: no new one initialized.');
    else if (git.ok) say('Initialized a git repository.');
    else return failed(git, plan, io);
  }
  if (plan.install) {
    say(`Installing the dependencies with ${pm}…`);
    const installed = await install(plan.dir, pm, io.env, io);
    if (!installed.ok) return failed(installed, plan, io);
  }
  say(`\nDone.\n\n${nextSteps(plan, pm, io.cwd, plan.install)}`);
  return 0;
}

/** Packs (from the clone) or copies (from the tarball) the framework packages into vendor/. */
async function vendorFramework(
  plan: Plan,
  pm: PackageManager,
  io: Io,
  say: (line: string) => void,
): Promise<StepResult> {
  const destination = join(plan.dir, VENDOR_DIR);
  const packages = frameworkPackages(plan);
  const names = listed(Object.keys(packages));
  let tarballs: Record<string, string>;
  if (plan.packages === 'checkout') {
    say(
      `Packing ${names} from ${REPO_ROOT} into ${VENDOR_DIR}/ (they are not taken from the registry; --published would)…`,
    );
    const packed = await packFramework(REPO_ROOT, destination, io.env, packages);
    if (!packed.ok) return packed;
    tarballs = packed.tarballs!;
  } else {
    say(
      `Copying ${names} from this packed scaffolder into ${VENDOR_DIR}/ (--published would take them from the registry)…`,
    );
    try {
      tarballs = copyPackedFramework(destination, packages);
    } catch (error) {
      return {
        ok: false,
        command: 'copy',
        output: '',
        reason: `could not copy the packed framework into ${destination}`,
        cause: (error as Error).message,
        fix: 'Check that the folder is writable, then run the command again.',
      };
    }
  }
  dependOnVendored(plan.dir, tarballs, pm);
  return { ok: true };
}

/**
 * Reports a failed step: its cause (when known), the end of the command's output, and the fix;
 * then where the files are. Never followed by "Done.".
 */
function failed(step: Extract<StepResult, { ok: false }>, plan: Plan, io: Io): number {
  const lines = step.output.trimEnd().split('\n');
  const tail = lines.slice(-OUTPUT_LINES).map((line) => `  ${line}`);
  io.stderr.write(
    [
      `\ncreate-mcp-server: ${step.reason}.`,
      ...(step.cause ? [`Cause: ${step.cause}.`] : []),
      ...(step.output.trim()
        ? [
            `Output of ${step.command}${lines.length > OUTPUT_LINES ? ` (last ${OUTPUT_LINES} lines)` : ''}:`,
            ...tail,
          ]
        : []),
      `Fix: ${step.fix ?? 'fix the problem above and run the command again.'}`,
      `The project's files are in ${plan.dir}; the steps after this one were not run.`,
      '',
    ].join('\n'),
  );
  return 1;
}

/** How much of a failed command's output the error repeats. */
const OUTPUT_LINES = 25;

function processIo(): Io {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
