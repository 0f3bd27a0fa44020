import { readFrontmatter } from '@mcp-fw/core/validation';
import type { CallOptions, ReadResourceResult, ServerDescription } from './types.js';

// The host side of the Skills extension (SEP-2640): list and get skill entries, and read a
// skill's files verified against its entry (listed, size, sha256 digest, and for SKILL.md the
// frontmatter), so a tampered or stale file is never handed to an agent. Nothing is read
// ahead of need: listing fetches entries only.

/** The extension's identifier in `capabilities.extensions`. */
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** One file of a skill, as its entry lists it. */
export interface SkillResource {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits of the file's bytes. */
  readonly digest: string;
  /** The file's length in bytes. */
  readonly size: number;
  readonly mimeType?: string;
}

/** A skill's `skills/list` / `skills/get` entry. */
export interface SkillEntry {
  /** The URI of its `SKILL.md` (`skill://<path>/SKILL.md`). */
  readonly uri: string;
  /** The `SKILL.md` frontmatter as JSON (`name`, `description`, …). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the skill, `SKILL.md` included. */
  readonly resources: readonly SkillResource[];
  readonly [key: string]: unknown;
}

/** What {@link Skills.list} gives: every entry, and the server's cache hints (2026-07-28). */
export interface SkillListing {
  readonly skills: SkillEntry[];
  readonly ttlMs?: number;
  readonly cacheScope?: string;
}

/** A skill file read and verified by {@link Skills.read}. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  readonly bytes: Uint8Array;
  /** The bytes as text, when the server sent text. */
  readonly text?: string;
  /** For `SKILL.md`: its frontmatter (equal to the entry's) and the markdown after it. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  readonly body?: string;
}

/** A child of a skill directory (`resources/directory/read`); subfolders are `inode/directory`. */
export interface DirectoryEntry {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly [key: string]: unknown;
}

/** Why a skill file was refused. */
export type SkillVerificationFailure = 'unlisted' | 'size' | 'digest' | 'frontmatter';

/**
 * A skill file did not match its entry: not listed in it, another size, another digest, or
 * (`SKILL.md`) other frontmatter. Its content was not returned; for `SKILL.md`, do not load
 * the skill.
 *
 * @example
 * ```ts
 * import { SkillVerificationError } from '@mcp-fw/client';
 *
 * try {
 *   await client.skills.read(skill);
 * } catch (error) {
 *   if (error instanceof SkillVerificationError) console.error(error.reason, error.uri);
 * }
 * ```
 */
export class SkillVerificationError extends Error {
  override readonly name = 'SkillVerificationError';
  readonly reason: SkillVerificationFailure;
  readonly uri: string;

  constructor(reason: SkillVerificationFailure, uri: string, message: string) {
    super(message);
    this.reason = reason;
    this.uri = uri;
  }
}

type Request = <T>(
  method: string,
  params: Record<string, unknown>,
  options: CallOptions,
) => Promise<T>;

/**
 * A server's skills (the Skills extension, SEP-2640), as `client.skills`: entries listed and
 * got, files read and verified against their entry before they are returned.
 *
 * @example
 * ```ts
 * const { skills } = await client.skills.list();
 * const skillMd = await client.skills.read(skills[0]);          // verified SKILL.md
 * const forms = await client.skills.read(skills[0], 'references/FORMS.md');
 * ```
 */
export class Skills {
  readonly #request: Request;
  readonly #server: ServerDescription;

  /** @internal Made by the client. */
  constructor(request: Request, server: ServerDescription) {
    this.#request = request;
    this.#server = server;
  }

  /** Whether the server declares the Skills extension. */
  get supported(): boolean {
    return this.#capability() !== undefined;
  }

  /** Whether the server answers `resources/directory/read`. */
  get directoryRead(): boolean {
    return (this.#capability() as { directoryRead?: unknown } | undefined)?.directoryRead === true;
  }

  /**
   * Every skill's entry (all pages of `skills/list`), each checked for shape; the first page's
   * cache hints. A server without the extension has none: an empty listing, no request.
   */
  async list(options: CallOptions = {}): Promise<SkillListing> {
    if (!this.supported) return { skills: [] };
    const skills: SkillEntry[] = [];
    const seen = new Set<string>();
    let hints: { ttlMs?: number; cacheScope?: string } | undefined;
    let cursor: string | undefined;
    do {
      const page = await this.#request<Record<string, unknown>>(
        'skills/list',
        cursor === undefined ? {} : { cursor },
        options,
      );
      if (!Array.isArray(page?.skills))
        throw new TypeError('The server\'s skills/list result has no "skills" array');
      hints ??= cacheHints(page);
      for (const entry of page.skills) skills.push(checkEntry(entry, 'skills/list'));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor ? page.nextCursor : undefined;
      if (cursor !== undefined && seen.has(cursor))
        throw new TypeError(
          `The server's skills/list sent the cursor "${cursor}" a second time; stopped instead of looping forever`,
        );
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return { skills, ...hints };
  }

  /** The entry of the skill whose `SKILL.md` is `uri` (`skills/get`); an unknown one rejects with -32602. */
  async get(uri: string, options: CallOptions = {}): Promise<SkillEntry> {
    const result = await this.#request<{ skill?: unknown }>('skills/get', { uri }, options);
    const entry = checkEntry(result?.skill, 'skills/get');
    if (entry.uri !== uri)
      throw new TypeError(
        `skills/get for ${uri} answered the entry of another skill (${entry.uri})`,
      );
    return entry;
  }

  /**
   * Reads one file of `skill`, by a path relative to the skill's folder (default `SKILL.md`)
   * or its full URI, and verifies it against the entry before returning it: the file must be
   * listed (checked before any request), and its size and sha256 digest must match; for the
   * skill's `SKILL.md`, its frontmatter must equal the entry's, field by field. A mismatch
   * rejects with {@link SkillVerificationError} and returns nothing of the file.
   */
  async read(skill: SkillEntry, path = 'SKILL.md', options: CallOptions = {}): Promise<SkillFile> {
    checkEntry(skill, 'read');
    const root = skill.uri.slice(0, -'/SKILL.md'.length);
    const wanted = path.includes('://') ? path : `${root}/${path.replace(/^\/+/, '')}`;
    const listed = skill.resources.find((r) => sameUri(r.uri, wanted));
    if (!listed)
      throw new SkillVerificationError(
        'unlisted',
        wanted,
        `${wanted} is not a file of the skill ${skill.uri}: its entry does not list it, so it cannot be verified; refused. Read one of the files the entry lists.`,
      );
    const result = await this.#request<ReadResourceResult>(
      'resources/read',
      { uri: listed.uri },
      options,
    );
    const content =
      result?.contents?.find((c) => sameUri(c.uri ?? '', listed.uri)) ?? result?.contents?.[0];
    if (!content || (typeof content.text !== 'string' && typeof content.blob !== 'string'))
      throw new TypeError(`resources/read of ${listed.uri} returned no text or blob`);
    const bytes =
      typeof content.text === 'string'
        ? new TextEncoder().encode(content.text)
        : base64Bytes(content.blob as string);
    if (bytes.byteLength !== listed.size)
      throw new SkillVerificationError(
        'size',
        listed.uri,
        `${listed.uri} is ${bytes.byteLength} bytes, but the skill's entry says ${listed.size}; refused (the file changed since it was listed, or was tampered with). List the skills again.`,
      );
    const digest = await sha256(bytes);
    if (digest !== listed.digest)
      throw new SkillVerificationError(
        'digest',
        listed.uri,
        `${listed.uri} has digest ${digest}, not the entry's ${listed.digest}; refused (the file changed since it was listed, or was tampered with). List the skills again.`,
      );
    const text = typeof content.text === 'string' ? content.text : undefined;
    const file = {
      uri: listed.uri,
      mimeType: content.mimeType,
      bytes,
      ...(text !== undefined && { text }),
    };
    if (!sameUri(listed.uri, skill.uri)) return file;
    const markdown = text ?? new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    const read = readFrontmatter(markdown);
    if ('problem' in read)
      throw new SkillVerificationError(
        'frontmatter',
        listed.uri,
        `${listed.uri} cannot be checked against its entry: ${read.problem}; refused.`,
      );
    const differences = differingFields(skill.frontmatter, read.frontmatter);
    if (differences.length > 0)
      throw new SkillVerificationError(
        'frontmatter',
        listed.uri,
        `The frontmatter of ${listed.uri} differs from the skill's entry in ${differences.join(', ')}; refused: do not load this skill.`,
      );
    return { ...file, frontmatter: read.frontmatter, body: bodyOf(markdown) };
  }

  /** The direct children of a skill directory (`resources/directory/read`), every page. */
  async directory(uri: string, options: CallOptions = {}): Promise<DirectoryEntry[]> {
    const all: DirectoryEntry[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.#request<Record<string, unknown>>(
        'resources/directory/read',
        cursor === undefined ? { uri } : { uri, cursor },
        options,
      );
      if (!Array.isArray(page?.resources))
        throw new TypeError(
          'The server\'s resources/directory/read result has no "resources" array',
        );
      all.push(...(page.resources as DirectoryEntry[]));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor ? page.nextCursor : undefined;
      if (cursor !== undefined && seen.has(cursor))
        throw new TypeError(`resources/directory/read sent the cursor "${cursor}" twice; stopped`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return all;
  }

  #capability(): unknown {
    const extensions = this.#server.capabilities.extensions as Record<string, unknown> | undefined;
    return extensions?.[SKILLS_EXTENSION];
  }
}

/** An entry as the extension shapes it; anything else is refused, naming what is wrong. */
function checkEntry(value: unknown, where: string): SkillEntry {
  const entry = value as Partial<SkillEntry> | undefined;
  const problem =
    typeof entry !== 'object' || entry === null
      ? 'it is not an object'
      : typeof entry.uri !== 'string' || !/^skill:\/\/.+\/SKILL\.md$/.test(entry.uri)
        ? `its uri ${JSON.stringify(entry.uri)} is not skill://<path>/SKILL.md`
        : typeof entry.frontmatter !== 'object' || entry.frontmatter === null
          ? 'it has no frontmatter object'
          : !Array.isArray(entry.resources) ||
              !entry.resources.every(
                (r) =>
                  typeof r?.uri === 'string' &&
                  typeof r.size === 'number' &&
                  typeof r.digest === 'string' &&
                  /^sha256:[0-9a-f]{64}$/.test(r.digest),
              )
            ? 'its resources are not a list of { uri, size, digest: "sha256:<hex>" }'
            : !entry.resources.some((r) => r.uri === entry.uri)
              ? 'its resources do not list its own SKILL.md'
              : undefined;
  if (problem)
    throw new TypeError(`A skill entry from ${where} is refused: ${problem} (SEP-2640).`);
  return entry as SkillEntry;
}

/** The markdown after the frontmatter's closing `---` line (readFrontmatter found one). */
function bodyOf(markdown: string): string {
  const text = markdown
    .replaceAll('\r\n', '\n')
    .replace(/^\uFEFF/, '')
    .slice(4);
  const close = /^---[\t ]*$/m.exec(text);
  return close ? text.slice(close.index + close[0].length).replace(/^\n/, '') : '';
}

function cacheHints(page: Record<string, unknown>): { ttlMs?: number; cacheScope?: string } {
  return {
    ...(typeof page.ttlMs === 'number' && { ttlMs: page.ttlMs }),
    ...(typeof page.cacheScope === 'string' && { cacheScope: page.cacheScope }),
  };
}

/** URIs equal once percent-encoding is undone (either side may encode a file name). */
function sameUri(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return decodeURI(a) === decodeURI(b);
  } catch {
    return false;
  }
}

/** The top-level fields whose JSON differs between the entry and the file. */
function differingFields(
  entry: Readonly<Record<string, unknown>>,
  file: Readonly<Record<string, unknown>>,
): string[] {
  const keys = new Set([...Object.keys(entry), ...Object.keys(file)]);
  return [...keys].filter((k) => canonical(entry[k]) !== canonical(file[k]));
}

/** JSON with object keys sorted, so field order does not count as a difference. */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(
    await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>),
  );
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
