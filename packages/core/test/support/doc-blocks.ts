// The TypeScript blocks of the repository's READMEs, as the doc tests compile and run them.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { main as writeTypeSchemas } from '@mcp-fw/typescript';
import { FRAGMENT_PRELUDE, FRAGMENT_SERVER_MODULE } from './doc-prelude.ts';
import { REPO_ROOT } from './paths.ts';

/**
 * What the test does with a block.
 * - `fragment`: type-checked only, with the names of {@link FRAGMENT_PRELUDE} in scope. Marked
 *   by the fence (```` ```ts fragment ````) or a `<!-- doc-test: fragment -->` line before it.
 * - `server-module`: a whole module that exports its server (`server` or default); started over
 *   stdio and listed by an official client.
 * - `server-program`: a whole program that serves itself (`serveStdio`, `serveFromArgs`); started
 *   over stdio and listed by an official client.
 * - `script`: any other whole program; run, and it must exit with status 0.
 */
export type BlockKind = 'fragment' | 'server-module' | 'server-program' | 'script';

export interface DocBlock {
  /** The README, relative to the repository root. */
  readonly readme: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** `README.md:12`, for test names and messages. */
  readonly where: string;
  readonly code: string;
  readonly kind: BlockKind;
  /** The file stem the block is written to, unique in the repository. */
  readonly stem: string;
}

const FENCE_OPEN = /^(\s*)```(ts|typescript)\b(.*)$/;
const FRAGMENT_MARK = /^<!--\s*doc-test:\s*fragment\s*-->$/;

/** Every README of the repository that is documentation: the root's and each package's. */
export function readmes(root = REPO_ROOT): string[] {
  const found = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  for (const group of ['packages', 'examples', 'templates', 'bench']) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    if (existsSync(join(dir, 'README.md'))) found.push(`${group}/README.md`);
    for (const name of readdirSync(dir).sort()) {
      if (existsSync(join(dir, name, 'README.md'))) found.push(`${group}/${name}/README.md`);
    }
  }
  return found;
}

/** The TypeScript blocks of one README (its text given), classified. */
export function blocksOf(readme: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (!open) continue;
    const [, indent, , info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].trim() !== '```'; j++) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const marked = FRAGMENT_MARK.test(previousLine(lines, i)) || /\bfragment\b/.test(info);
    const code = `${body.join('\n')}\n`;
    const line = i + 1;
    const stem =
      `${readme.replace(/README\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}readme-L${line}`.replace(
        /^-/,
        '',
      );
    blocks.push({
      readme,
      line,
      where: `${readme}:${line}`,
      code,
      kind: marked ? 'fragment' : programKind(code),
      stem,
    });
    i = j;
  }
  return blocks;
}

function previousLine(lines: string[], index: number): string {
  for (let k = index - 1; k >= 0; k--) if (lines[k].trim() !== '') return lines[k].trim();
  return '';
}

function programKind(code: string): BlockKind {
  if (/\bserve(Stdio|FromArgs)\s*\(/.test(code)) return 'server-program';
  if (/^export\s+(const|let|var)\s+server\b|^export\s+default\b/m.test(code))
    return 'server-module';
  return 'script';
}

/** Every block of every README. */
export function allBlocks(root = REPO_ROOT): DocBlock[] {
  return readmes(root).flatMap((readme) =>
    blocksOf(readme, readFileSync(join(root, readme), 'utf8')),
  );
}

/**
 * The tool names a block's `@Tool` decorators declare: the `name` option, else the method
 * name. Good enough for documentation code, where a decorator sits right above its method.
 */
export function declaredTools(code: string): string[] {
  return declared(code, 'Tool');
}

/** The prompt names a block's `@Prompt` decorators declare, as {@link declaredTools} does. */
export function declaredPrompts(code: string): string[] {
  return declared(code, 'Prompt');
}

/** The URIs (and URI templates) a block's `@Resource` decorators declare. */
export function declaredResources(code: string): string[] {
  return [...code.matchAll(/@Resource\(\s*'([^']+)'/g)].map((m) => m[1]);
}

function declared(code: string, decoratorName: 'Tool' | 'Prompt'): string[] {
  const names: string[] = [];
  const decorator = new RegExp(
    `@${decoratorName}\\(([\\s\\S]*?)\\)\\s*\\n\\s*(?:async\\s+)?(?:static\\s+)?([A-Za-z_$][\\w$]*)\\s*\\(`,
    'g',
  );
  for (const match of code.matchAll(decorator)) {
    const named = /\bname:\s*'([^']+)'/.exec(match[1]);
    names.push(named ? named[1] : match[2]);
  }
  return names;
}

/** Where the blocks are compiled: a git-ignored folder inside the repository, so packages resolve. */
export const DOC_WORKSPACE = join(REPO_ROOT, '.cache', 'doc-tests');

// What a newcomer's project uses (templates/*/tsconfig.json), plus sources for our packages.
export const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  rootDir: 'src',
  outDir: 'dist',
  isolatedModules: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  forceConsistentCasingInFileNames: true,
  customConditions: ['@mcp-fw/source'],
};

export interface DocWorkspace {
  /** Compiles programs (no prelude), to `dist/`. */
  readonly programs: string;
  /** Type-checks fragments against the prelude. */
  readonly fragments: string;
}

/** Writes each block to its project: whole programs to one, fragments (with the prelude) to the other. */
export function writeWorkspace(blocks: readonly DocBlock[], dir = DOC_WORKSPACE): DocWorkspace {
  rmSync(dir, { recursive: true, force: true });
  const programs = join(dir, 'programs');
  const fragments = join(dir, 'fragments');
  for (const project of [programs, fragments]) {
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'doc-tests', private: true, type: 'module' })}\n`,
    );
  }
  writeFileSync(
    join(programs, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['src'] }, null, 2)}\n`,
  );
  writeFileSync(
    join(fragments, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, noEmit: true }, include: ['src'] }, null, 2)}\n`,
  );
  writeFileSync(join(fragments, 'src', 'prelude.d.ts'), FRAGMENT_PRELUDE);
  writeFileSync(join(fragments, 'src', 'server.ts'), FRAGMENT_SERVER_MODULE);
  for (const block of blocks) {
    // A fragment is made a module, so its declarations shadow the prelude's instead of clashing.
    const code = block.kind === 'fragment' ? `${block.code}export {};\n` : block.code;
    const project = block.kind === 'fragment' ? fragments : programs;
    writeFileSync(join(project, 'src', `${block.stem}.ts`), withOwnSchemas(code, block.stem));
    if (GENERATED_SCHEMAS.test(code)) writeSchemasOf(project, block.stem);
  }
  return { programs, fragments };
}

// A plain-typed block imports the schemas `npx mcp-fw-schemas` writes from its signatures.
const GENERATED_SCHEMAS = /from '\.\/schemas\.gen\.js'/;

/** Each plain-typed block gets its own generated module, as its own project would. */
function withOwnSchemas(code: string, stem: string): string {
  return code.replace(GENERATED_SCHEMAS, `from './${stem}.schemas.gen.js'`);
}

/** Runs mcp-fw-schemas over the block alone, as the README tells its reader to. */
function writeSchemasOf(project: string, stem: string): void {
  const tsconfig = join(project, `tsconfig.${stem}.json`);
  writeFileSync(
    tsconfig,
    `${JSON.stringify({ extends: './tsconfig.json', include: [], files: [`src/${stem}.ts`] })}\n`,
  );
  const said: string[] = [];
  const out = join(project, 'src', `${stem}.schemas.gen.ts`);
  if (writeTypeSchemas(['-p', tsconfig, '--out', out], (text) => said.push(text)) !== 0)
    throw new Error(`mcp-fw-schemas failed for ${stem}: ${said.join('\n')}`);
}

const run = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** One compiler diagnostic, placed in its README. */
export interface DocDiagnostic {
  readonly where: string;
  readonly message: string;
}

/**
 * Compiles both projects (tsc once each, in parallel) and returns the diagnostics per block
 * stem, each placed at its README line. Programs are emitted to `programs/dist/`.
 */
export async function compileWorkspace(
  workspace: DocWorkspace,
  blocks: readonly DocBlock[],
): Promise<Map<string, DocDiagnostic[]>> {
  const outputs = await Promise.all(
    [workspace.programs, workspace.fragments].map(async (project) => {
      try {
        await run(
          process.execPath,
          [TSC, '-p', join(project, 'tsconfig.json'), '--pretty', 'false'],
          { cwd: project, maxBuffer: 1 << 24 },
        );
        return '';
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        return `${stdout ?? ''}${stderr ?? ''}` || String(error);
      }
    }),
  );
  const byStem = new Map<string, DocBlock>(blocks.map((b) => [b.stem, b]));
  const diagnostics = new Map<string, DocDiagnostic[]>();
  let current: DocDiagnostic[] | undefined;
  let last: { where: string; message: string } | undefined;
  for (const line of outputs.join('\n').split('\n')) {
    const match = /^(?:.*[/\\])?src[/\\]([^/\\(]+)\.ts\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(
      line,
    );
    if (match) {
      const [, stem, row, column, message] = match;
      const block = byStem.get(stem);
      const where = block
        ? `${block.readme}:${block.line + Number(row)}:${column}`
        : `${stem}.ts:${row}:${column}`;
      current = diagnostics.get(stem) ?? [];
      diagnostics.set(stem, current);
      last = { where, message };
      current.push(last);
    } else if (line.startsWith(' ') && last) {
      last.message += `\n${line}`;
    } else if (line.trim()) {
      // A diagnostic outside any block (tsconfig, prelude): every block gets it.
      const global = diagnostics.get('*') ?? [];
      global.push({ where: 'tsc', message: line });
      diagnostics.set('*', global);
      last = undefined;
    }
  }
  return diagnostics;
}

/** The compiled JavaScript of a program block. */
export function emitted(workspace: DocWorkspace, block: DocBlock): string {
  return join(workspace.programs, 'dist', `${block.stem}.js`);
}

/** The program a `server-module` block is started with: it serves the module's server over stdio. */
export function stdioRunner(workspace: DocWorkspace, block: DocBlock): string {
  const file = join(workspace.programs, 'dist', `${block.stem}.stdio.mjs`);
  writeFileSync(
    file,
    [
      "import { serveStdio } from '@mcp-fw/core/stdio';",
      `const mod = await import('./${block.stem}.js');`,
      'const exported = await (mod.server ?? mod.default);',
      "serveStdio(typeof exported === 'function' ? await exported() : exported);",
      '',
    ].join('\n'),
  );
  return file;
}

export function shown(file: string): string {
  return relative(REPO_ROOT, file);
}

/** One `mcp-fw …` invocation in a README's bash block. */
export interface CliMention {
  readonly where: string;
  readonly command: string;
  readonly flags: readonly string[];
}

/** The `mcp-fw <command> [--flags]` invocations in a README's ```bash blocks (comments cut off). */
export function cliMentions(readme: string, text: string): CliMention[] {
  const mentions: CliMention[] = [];
  let inBash = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inBash = !inBash && /^```(bash|sh|shell)\b/.test(line);
      return;
    }
    if (!inBash) return;
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const segment of code.split(/&&|\|\||;|\|/)) {
      const match = /(?:^|\s)mcp-fw\s+([a-z][a-z-]*)(.*)$/.exec(segment);
      if (match)
        mentions.push({
          where: `${readme}:${index + 1}`,
          command: match[1],
          flags: match[2].match(/--[a-z][a-z-]*/g) ?? [],
        });
    }
  });
  return mentions;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (fenced code skipped). */
export function anchorsIn(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]));
  }
  return anchors;
}

/** The relative links of a README (`[text](path#anchor)`, `[text](#anchor)`), with their line. */
export function relativeLinks(
  readme: string,
  text: string,
): { where: string; path: string; anchor?: string }[] {
  const links: { where: string; path: string; anchor?: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced) return;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      links.push({ where: `${readme}:${index + 1}`, path, anchor });
    }
  });
  return links;
}

/** The ```json blocks of a README, with the line of their fence. */
export function jsonBlocks(readme: string, text: string): { where: string; text: string }[] {
  const found: { where: string; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```json\s*$/.test(lines[i])) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== '```') j++;
    found.push({ where: `${readme}:${i + 1}`, text: lines.slice(i + 1, j).join('\n') });
    i = j;
  }
  return found;
}
