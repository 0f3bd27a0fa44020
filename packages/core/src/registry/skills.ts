import { sha256Hex } from '#sha256-hex';
import { StartupError } from './errors.js';
import type { ResourceDefinition } from './resource-definition.js';
import { readFrontmatter } from './skill-frontmatter.js';

/**
 * One skill in the Agent Skills format, as given to `ServerOptions.skills`: its path in the
 * server's skill namespace and its files. `loadSkills` of `@mcp-fw/core/node` builds these from
 * a `skills/` folder; build them yourself to serve skills from anywhere else.
 *
 * @example
 * ```ts
 * const skill: SkillSource = {
 *   path: 'git-workflow',
 *   files: { 'SKILL.md': '---\nname: git-workflow\ndescription: Our branching rules\n---\n# Git\n' },
 * };
 * createServer({ name: 'repo', version: '1.0.0', skills: [skill] });
 * ```
 */
export interface SkillSource {
  /**
   * `/`-separated segments locating the skill (`git-workflow`, `acme/billing/refunds`); the
   * last one is the skill's name and must equal the `name` of its frontmatter.
   */
  readonly path: string;
  /** The skill's files by their `/`-separated path under the skill; `SKILL.md` is required. */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
}

/** One file of a skill entry: its URI, `sha256:` digest and size in bytes. */
export interface SkillFileEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** The entry `skills/list` and `skills/get` return for one skill. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly SkillFileEntry[];
}

/** A child in a `resources/directory/read` result. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly description?: string;
  readonly size?: number;
}

/** The interoperability limits of the Skills extension: hosts accept skills up to these. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });
/** The `mimeType` of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

// Agent Skills: 1-64 lowercase letters, digits and single hyphens.
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
// Prefix segments: an RFC 3986 reg-name (the first is the URI's authority) without escapes.
const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  sh: 'text/x-shellscript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

interface SkillFile {
  readonly uri: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Set when the bytes are UTF-8 that decodes losslessly: served as text, else as a blob. */
  readonly text: string | undefined;
  readonly mimeType: string;
}

const encoder = new TextEncoder();

function losslessText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function mimeTypeOf(name: string, text: string | undefined): string {
  const dot = name.lastIndexOf('.');
  const known = dot > 0 ? MIME_TYPES[name.slice(dot + 1).toLowerCase()] : undefined;
  return known ?? (text === undefined ? 'application/octet-stream' : 'text/plain');
}

function invalid(path: string, message: string): StartupError {
  return new StartupError('INVALID_SKILL', `Skill ${path}: ${message}`);
}

/** The URI path of `segments` (each percent-encoded as a URI path segment). */
function uriOf(segments: readonly string[]): string {
  return `skill://${segments.map(encodeURIComponent).join('/')}`;
}

function checkedPath(skill: string, path: string, what: string): string[] {
  const segments = path.split('/');
  for (const segment of segments) {
    if (
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      segment.includes('\\') ||
      segment.includes('\0')
    )
      throw invalid(
        skill,
        `${what} "${path}" is not a plain relative path (empty, ".", ".." or "\\" segments, or NUL); a skill serves only the files inside its own folder`,
      );
  }
  return segments;
}

/**
 * The skills a server serves, built once at startup: entries with digests, the files as
 * resources, and the directory tree for `resources/directory/read`. Nothing is read from disk
 * after this, so no request can reach a file the catalog does not hold.
 */
export class SkillCatalog {
  readonly entries: readonly SkillEntry[];
  readonly #entries = new Map<string, SkillEntry>();
  readonly #files = new Map<string, SkillFile & { description?: string; title?: string }>();
  readonly #directories = new Map<string, Set<string>>();

  constructor(sources: readonly SkillSource[]) {
    const entries: SkillEntry[] = [];
    for (const source of sources) entries.push(this.#add(source));
    this.entries = Object.freeze(entries);
  }

  /** The entry of the skill whose `SKILL.md` is at `uri`. */
  entry(uri: string): SkillEntry | undefined {
    return this.#entries.get(uri);
  }

  /** The direct children of the directory at `uri`; undefined when it is no directory. */
  directory(uri: string): readonly DirectoryChild[] | undefined {
    const children = this.#directories.get(uri);
    return children && [...children].map((child) => this.#child(child));
  }

  /** Every file of every skill, as fixed resources (`resources/list` and `resources/read`). */
  resources(): ResourceDefinition[] {
    return [...this.#files.values()].map((file) => ({
      uri: file.uri,
      name: file.name,
      ...(file.description !== undefined && { description: file.description }),
      mimeType: file.mimeType,
      size: file.bytes.length,
      origin: `skill file ${file.uri}`,
      limits: {},
      scopes: [],
      middleware: [],
      handler: () =>
        file.text === undefined ? file.bytes : { text: file.text, mimeType: file.mimeType },
    }));
  }

  #add(source: SkillSource): SkillEntry {
    const where = source.path;
    const skillSegments = checkedPath(where, source.path, 'path');
    const name = skillSegments[skillSegments.length - 1]!;
    if (!SKILL_NAME.test(name))
      throw invalid(
        where,
        `the name "${name}" (the last segment of the path) must be 1-64 lowercase letters, digits and single hyphens (Agent Skills naming rules); rename its folder`,
      );
    for (const prefix of skillSegments.slice(0, -1))
      if (!PREFIX_SEGMENT.test(prefix))
        throw invalid(
          where,
          `the path segment "${prefix}" must use only letters, digits, ".", "_", "~" and "-"`,
        );
    const raw = source.files['SKILL.md'];
    if (raw === undefined)
      throw invalid(where, 'it has no SKILL.md at its root; every skill needs one');
    const markdown = typeof raw === 'string' ? raw : losslessText(raw);
    if (markdown === undefined) throw invalid(where, 'its SKILL.md is not valid UTF-8');
    const read = readFrontmatter(markdown);
    if ('problem' in read) throw invalid(where, `SKILL.md: ${read.problem}`);
    const { frontmatter } = read;
    if (frontmatter.name !== name)
      throw invalid(
        where,
        `the frontmatter name ${JSON.stringify(frontmatter.name)} must equal the folder's name "${name}"`,
      );
    const description = frontmatter.description;
    if (typeof description !== 'string' || description === '' || [...description].length > 1024)
      throw invalid(where, 'the frontmatter needs a description of 1-1024 characters');

    const paths = Object.keys(source.files).sort();
    if (paths.length > SKILL_LIMITS.files)
      throw invalid(
        where,
        `it has ${paths.length} files; hosts accept at most ${SKILL_LIMITS.files} per skill (Skills extension limits); split it into several skills`,
      );
    const resources: SkillFileEntry[] = [];
    let total = 0;
    for (const path of paths) {
      const segments = [...skillSegments, ...checkedPath(where, path, 'file')];
      const content = source.files[path]!;
      const bytes = typeof content === 'string' ? encoder.encode(content) : content;
      total += bytes.length;
      const uri = uriOf(segments);
      const text = typeof content === 'string' ? content : losslessText(bytes);
      const isManifest = path === 'SKILL.md';
      const base = segments[segments.length - 1]!;
      const existing = this.#files.get(uri);
      // A nested skill's files are files of the enclosing skill too: one resource, two entries.
      if (!existing || isManifest)
        this.#files.set(uri, {
          uri,
          name: isManifest ? name : base,
          // A description, so the file is not reported as undescribed; the manifest's is the skill's.
          description: isManifest ? description : `${path} of the skill ${name}`,
          bytes,
          text,
          mimeType: isManifest ? 'text/markdown' : mimeTypeOf(base, text),
        });
      this.#addToTree(segments, uri);
      resources.push({ uri, digest: `sha256:${sha256Hex(bytes)}`, size: bytes.length });
    }
    if (total > SKILL_LIMITS.bytes)
      throw invalid(
        where,
        `its files hold ${total} bytes; hosts accept at most ${SKILL_LIMITS.bytes} (16 MiB) per skill (Skills extension limits); move large assets out of it`,
      );
    const entry: SkillEntry = Object.freeze({
      uri: uriOf([...skillSegments, 'SKILL.md']),
      frontmatter: Object.freeze(frontmatter),
      resources: Object.freeze(resources),
    });
    if (this.#entries.has(entry.uri)) throw invalid(where, 'it is given twice');
    this.#entries.set(entry.uri, entry);
    return entry;
  }

  /** Registers the file at `segments` in its directory, and each directory in its parent. */
  #addToTree(segments: readonly string[], uri: string): void {
    for (let depth = segments.length - 1; depth >= 1; depth--) {
      const parent = uriOf(segments.slice(0, depth));
      const children = this.#directories.get(parent) ?? new Set<string>();
      this.#directories.set(parent, children);
      const childUri = depth === segments.length - 1 ? uri : uriOf(segments.slice(0, depth + 1));
      if (children.has(childUri)) return;
      children.add(childUri);
    }
  }

  #child(uri: string): DirectoryChild {
    const file = this.#files.get(uri);
    if (!file) {
      const name = decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
      return { uri, name, mimeType: DIRECTORY_MIME_TYPE };
    }
    return {
      uri,
      name: file.name,
      mimeType: file.mimeType,
      ...(file.description !== undefined && { description: file.description }),
      size: file.bytes.length,
    };
  }
}
