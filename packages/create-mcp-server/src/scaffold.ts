import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { envExample, idpSource, registrationSteps, type Idp } from './idp-presets.js';
import { projectPath, templateFiles } from './template-files.js';
import type { Auth, Transport } from './templates.js';

/** What {@link scaffold} writes. */
export interface ScaffoldOptions {
  /** The template folder. */
  from: string;
  /** The project folder (created when missing). */
  to: string;
  packageName: string;
  transport: Transport;
  /** Which `<!-- auth:NAME -->` sections of the READMEs to keep (default `none`). */
  auth?: Auth;
  /**
   * With `oauth`, who signs people in: `external` (default), or a preset whose `src/idp.ts` and
   * `.env.example` are written, and whose registration steps fill the README's
   * `<!-- idp:register -->` line. Keeps the `<!-- idp:external -->` or `<!-- idp:own -->` sections.
   */
  idp?: Idp;
  /**
   * A folder laid over `from`: its files replace or join the template's, and its
   * `package.overlay.json` is merged into package.json (each field's keys over the template's).
   */
  overlay?: string;
}

/** The file of an overlay merged into package.json rather than copied. */
export const PACKAGE_OVERLAY = 'package.overlay.json';

/** The port the `dev` and `start` scripts serve HTTP on when `PORT` is not set. */
export const HTTP_PORT = 3000;

/**
 * Writes the project: every template file (the overlay's instead, where it has one), with the
 * template's placeholder name (its package.json name) replaced by the package name, the
 * README's sections for the other transport and auth dropped, and the `dev`/`start` scripts
 * serving the chosen transport. Returns the written paths, relative to the project.
 */
export function scaffold(options: ScaffoldOptions): string[] {
  const placeholder = (
    JSON.parse(readFileSync(join(options.from, 'package.json'), 'utf8')) as { name: string }
  ).name;
  const overlaid = new Set(options.overlay ? templateFiles(options.overlay) : []);
  const sources = [
    ...templateFiles(options.from)
      .filter((file) => !overlaid.has(file))
      .map((file) => ({ file, dir: options.from })),
    ...[...overlaid]
      .filter((file) => file !== PACKAGE_OVERLAY)
      .map((file) => ({ file, dir: options.overlay! })),
  ];
  const idp = options.auth === 'oauth' ? (options.idp ?? 'external') : 'external';
  const written: string[] = [];
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(options.to, path)), { recursive: true });
    writeFileSync(join(options.to, path), text);
    written.push(path);
  };
  for (const { file, dir } of sources) {
    let text = readFileSync(join(dir, file), 'utf8').replaceAll(placeholder, options.packageName);
    if (file === 'package.json') {
      text = withTransportScripts(text, options.transport);
      if (overlaid.has(PACKAGE_OVERLAY))
        text = mergedPackage(text, readFileSync(join(options.overlay!, PACKAGE_OVERLAY), 'utf8'));
    }
    if (file.endsWith('.md'))
      text = keepSections(
        keepSections(
          keepSections(text, 'transport', options.transport),
          'auth',
          options.auth ?? 'none',
        ),
        'idp',
        idp === 'external' ? 'external' : 'own',
      ).replace('<!-- idp:register -->\n', idp === 'external' ? '' : registrationSteps(idp));
    // The identity provider's own file replaces the overlay's (GitHub's).
    if (file === 'src/idp.ts' && idp !== 'external') text = idpSource(idp);
    write(projectPath(file), text);
  }
  if (idp !== 'external') write('.env.example', envExample(idp));
  return written.sort();
}

/**
 * package.json with an overlay's fields merged in: objects (scripts, dependencies…) key by key,
 * the overlay's keys last and winning; anything else replaced. Dependency lists stay sorted.
 */
function mergedPackage(packageJson: string, overlayJson: string): string {
  const pkg = JSON.parse(packageJson) as Record<string, unknown>;
  for (const [field, value] of Object.entries(JSON.parse(overlayJson) as Record<string, unknown>)) {
    const base = pkg[field];
    if (isObject(base) && isObject(value)) {
      const merged = { ...base, ...value };
      pkg[field] = /dependencies$/i.test(field)
        ? Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)))
        : merged;
    } else {
      pkg[field] = value;
    }
  }
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `dev` and `start` with `--http`, unless they already serve HTTP (or stdio is wanted). No
 * `--port`: the CLI takes the port from `PORT`, else 3000, so `PORT=8080 npm start` works.
 */
function withTransportScripts(packageJson: string, transport: Transport): string {
  const pkg = JSON.parse(packageJson) as { scripts: Record<string, string> };
  if (transport === 'http') {
    for (const script of ['dev', 'start']) {
      if (!pkg.scripts[script].includes('--http')) pkg.scripts[script] += ' --http';
    }
  }
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * Keeps the `<!-- KIND:NAME -->` … `<!-- /KIND:NAME -->` sections (KIND `transport`, `auth` or `idp`)
 * of the chosen NAME, without their markers, and drops the others.
 */
function keepSections(
  markdown: string,
  kind: 'transport' | 'auth' | 'idp',
  chosen: string,
): string {
  return markdown.replace(
    new RegExp(`<!-- ${kind}:(\\w+) -->\\n([\\s\\S]*?)<!-- \\/${kind}:\\1 -->\\n`, 'g'),
    (_section, name: string, body: string) => (name === chosen ? body : ''),
  );
}
