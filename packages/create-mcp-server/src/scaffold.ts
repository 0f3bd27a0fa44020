import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectPath, templateFiles } from './template-files.js';
import type { Transport } from './templates.js';

/** What {@link scaffold} writes. */
export interface ScaffoldOptions {
  /** The template folder. */
  from: string;
  /** The project folder (created when missing). */
  to: string;
  packageName: string;
  transport: Transport;
}

/** The port the `dev` and `start` scripts serve HTTP on when `PORT` is not set. */
export const HTTP_PORT = 3000;

/**
 * Writes the project: every template file, with the template's placeholder name (its
 * package.json name) replaced by the package name, the README's sections for the other
 * transport dropped, and the `dev`/`start` scripts serving the chosen transport. Returns the
 * written paths, relative to the project.
 */
export function scaffold(options: ScaffoldOptions): string[] {
  const placeholder = (JSON.parse(readFileSync(join(options.from, 'package.json'), 'utf8')) as { name: string }).name;
  const written: string[] = [];
  for (const file of templateFiles(options.from)) {
    let text = readFileSync(join(options.from, file), 'utf8').replaceAll(placeholder, options.packageName);
    if (file === 'package.json') text = withTransportScripts(text, options.transport);
    if (file.endsWith('.md')) text = keepTransportSections(text, options.transport);
    const path = projectPath(file);
    mkdirSync(dirname(join(options.to, path)), { recursive: true });
    writeFileSync(join(options.to, path), text);
    written.push(path);
  }
  return written;
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
 * Keeps the `<!-- transport:NAME -->` … `<!-- /transport:NAME -->` sections of the chosen
 * transport, without their markers, and drops the others.
 */
function keepTransportSections(markdown: string, transport: Transport): string {
  return markdown.replace(
    /<!-- transport:(\w+) -->\n([\s\S]*?)<!-- \/transport:\1 -->\n/g,
    (_section, name: string, body: string) => (name === transport ? body : ''),
  );
}
