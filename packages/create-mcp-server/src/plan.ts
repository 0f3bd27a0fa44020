import { UsageError, type Flags } from './args.js';
import { defaultPackagesSource, type PackagesSource } from './framework-packages.js';
import { packageNameProblem } from './package-name.js';
import { IDPS, type Idp } from './idp-presets.js';
import type { Prompter } from './prompt.js';
import { occupant, targetOf, type Target } from './target.js';
import {
  AUTHS,
  findTemplate,
  TEMPLATES,
  TRANSPORTS,
  type Auth,
  type TemplateInfo,
  type Transport,
} from './templates.js';

/** Everything decided before a file is written. */
export interface Plan extends Target {
  template: TemplateInfo;
  transport: Transport;
  /** `oauth` only with a template that offers it (then the transport is http). */
  auth: Auth;
  /** With `oauth`: who signs people in (`external`, or a preset: the server is its own authorization server). */
  idp: Idp;
  install: boolean;
  git: boolean;
  /** Where `@mcp-fw/*` come from: packed from this clone or tarball, or the registry. */
  packages: PackagesSource;
}

/** The project name offered (and taken by `--yes`) when none is given. */
export const DEFAULT_NAME = 'my-mcp-server';

/**
 * Checks the command line as far as it goes, so bad input fails before any question. Throws a
 * {@link UsageError} that says what to fix.
 */
export function checkFlags(flags: Flags, cwd: string): void {
  if (flags.template !== undefined) checkTransport(templateNamed(flags.template), flags.transport);
  if (flags.transport !== undefined) transportNamed(flags.transport);
  if (flags.idp !== undefined) {
    idpNamed(flags.idp);
    if (flags.auth !== undefined && flags.auth !== 'oauth')
      throw new UsageError(
        `--idp ${flags.idp} chooses who signs people in to an OAuth-protected server; drop --auth ${flags.auth}, or pass --auth oauth`,
      );
  }
  const auth = flags.auth ?? (flags.idp !== undefined ? 'oauth' : undefined);
  if (auth !== undefined)
    checkAuth(
      flags.template === undefined ? undefined : templateNamed(flags.template),
      flags.transport,
      authNamed(auth),
    );
  if (flags.target !== undefined) {
    const problem = targetProblem(targetOf(flags.target, cwd), flags.force);
    if (problem) throw new UsageError(problem);
  }
}

/**
 * The plan: what the command line gave, the rest answered through `prompter`, or defaulted when
 * there is none (`--yes`). Call {@link checkFlags} first.
 */
export async function makePlan(
  flags: Flags,
  cwd: string,
  prompter: Prompter | undefined,
): Promise<Plan> {
  const target = await chooseTarget(flags, cwd, prompter);
  const template = await chooseTemplate(flags, prompter);
  checkTransport(template, flags.transport);
  const transport = await chooseTransport(flags, template, prompter);
  const auth = await chooseAuth(flags, template, prompter);
  const idp =
    auth !== 'oauth'
      ? 'external'
      : flags.idp !== undefined
        ? idpNamed(flags.idp)
        : prompter
          ? idpNamed(await prompter.select('Who signs people in?', IDPS, 'external'))
          : 'external';
  const install =
    flags.install ?? (prompter ? await prompter.confirm('Install the dependencies?', true) : true);
  const git =
    flags.git ?? (prompter ? await prompter.confirm('Initialize a git repository?', true) : true);
  const packages = flags.published ? 'registry' : defaultPackagesSource();
  return { ...target, template, transport, auth, idp, install, git, packages };
}

async function chooseTarget(
  flags: Flags,
  cwd: string,
  prompter: Prompter | undefined,
): Promise<Target> {
  if (flags.target !== undefined) return targetOf(flags.target, cwd);
  const check = (answer: string) => targetProblem(targetOf(answer, cwd), flags.force);
  if (prompter) return targetOf(await prompter.text('Project name:', DEFAULT_NAME, check), cwd);
  const problem = check(DEFAULT_NAME);
  if (problem) throw new UsageError(problem);
  return targetOf(DEFAULT_NAME, cwd);
}

async function chooseTemplate(flags: Flags, prompter: Prompter | undefined): Promise<TemplateInfo> {
  if (flags.template !== undefined) return templateNamed(flags.template);
  // OAuth (which --idp implies) protects an HTTP server: only the templates that offer it are left to choose from.
  if (flags.auth === 'oauth' || flags.idp !== undefined) return TEMPLATES.find((t) => t.auth)!;
  if (!prompter) return TEMPLATES[0];
  return templateNamed(await prompter.select('Template:', TEMPLATES, TEMPLATES[0].name));
}

async function chooseTransport(
  flags: Flags,
  template: TemplateInfo,
  prompter: Prompter | undefined,
): Promise<Transport> {
  if (flags.transport !== undefined) return transportNamed(flags.transport);
  if (!prompter || template.fixedTransport) return template.transport;
  return prompter.select('Transport:', TRANSPORTS, template.transport);
}

async function chooseAuth(
  flags: Flags,
  template: TemplateInfo,
  prompter: Prompter | undefined,
): Promise<Auth> {
  if (flags.auth !== undefined) return authNamed(flags.auth);
  if (flags.idp !== undefined) return 'oauth';
  if (!prompter || !template.auth) return 'none';
  return prompter.select('Protect it with OAuth?', AUTHS, 'none');
}

/** Whether anything is left to ask. */
export function needsAnswers(flags: Flags): boolean {
  // `--auth oauth` (or `--idp`) alone chooses the template that offers it.
  const oauth = flags.auth === 'oauth' || flags.idp !== undefined;
  const template =
    flags.template !== undefined
      ? findTemplate(flags.template)
      : oauth
        ? TEMPLATES.find((t) => t.auth)
        : undefined;
  return (
    flags.target === undefined ||
    template === undefined ||
    (flags.transport === undefined && !template.fixedTransport) ||
    (flags.auth === undefined && flags.idp === undefined && template.auth === true) ||
    (oauth && flags.idp === undefined) ||
    flags.install === undefined ||
    flags.git === undefined
  );
}

function checkTransport(template: TemplateInfo, transport: string | undefined): void {
  if (!template.fixedTransport || transport === undefined || transport === template.transport)
    return;
  const others = TEMPLATES.filter((t) => !t.fixedTransport).map((t) => t.name);
  throw new UsageError(
    `the ${template.name} template only serves ${template.transport}; for ${transport}, choose ${others.length > 1 ? `${others.slice(0, -1).join(', ')} or ${others.at(-1)}` : others[0]}`,
  );
}

/**
 * `oauth` needs HTTP: a stdio server has no requests to carry tokens (it runs as the user who
 * launched it, with credentials from its environment), so the stdio-only choices are refused.
 */
function checkAuth(
  template: TemplateInfo | undefined,
  transport: string | undefined,
  auth: Auth,
): void {
  if (auth !== 'oauth') return;
  const offering = TEMPLATES.filter((t) => t.auth)
    .map((t) => t.name)
    .join(' or ');
  if (transport === 'stdio') {
    throw new UsageError(
      `--auth oauth protects an HTTP server, and stdio has no HTTP requests to carry tokens (a stdio server takes its credentials from its environment); ` +
        `for OAuth, drop --transport stdio and choose --template ${offering}; for stdio, drop --auth oauth`,
    );
  }
  if (template && !template.auth) {
    throw new UsageError(
      `the ${template.name} template has no auth option; for --auth oauth, choose --template ${offering} (Streamable HTTP), or drop --auth`,
    );
  }
}

function targetProblem(target: Target, force: boolean): string | undefined {
  const nameProblem = packageNameProblem(target.packageName);
  if (nameProblem) return `"${target.packageName}" is not a valid npm package name: ${nameProblem}`;
  const occupied = occupant(target.dir);
  if (occupied === 'file') return `${target.dir} is a file; choose another directory`;
  if (occupied === 'files' && !force)
    return `${target.dir} is not empty; choose another directory, or pass --force to write into it`;
  return undefined;
}

function templateNamed(name: string): TemplateInfo {
  const template = findTemplate(name);
  if (!template) {
    throw new UsageError(
      `unknown template "${name}"; choose one of ${TEMPLATES.map((t) => t.name).join(', ')}`,
    );
  }
  return template;
}

function authNamed(name: string): Auth {
  const auth = AUTHS.find((a) => a.name === name);
  if (!auth)
    throw new UsageError(
      `unknown auth "${name}"; choose one of ${AUTHS.map((a) => a.name).join(', ')}`,
    );
  return auth.name;
}

function idpNamed(name: string): Idp {
  const idp = IDPS.find((i) => i.name === name);
  if (!idp)
    throw new UsageError(
      `unknown identity provider "${name}"; choose one of ${IDPS.map((i) => i.name).join(', ')}`,
    );
  return idp.name;
}

function transportNamed(name: string): Transport {
  const transport = TRANSPORTS.find((t) => t.name === name);
  if (!transport) {
    throw new UsageError(
      `unknown transport "${name}"; choose one of ${TRANSPORTS.map((t) => t.name).join(', ')}`,
    );
  }
  return transport.name;
}
