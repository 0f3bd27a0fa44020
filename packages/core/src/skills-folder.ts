import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StartupError, type SkillSource } from './registry/index.js';

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** The largest file a skill may hold, in bytes (default 1 MiB); a larger one fails startup. */
  readonly maxFileBytes?: number;
}

const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

function refuse(message: string): StartupError {
  return new StartupError('INVALID_SKILL', message);
}

/**
 * Reads a folder of skills in the Agent Skills format: every folder holding a `SKILL.md` is a
 * skill, named by that folder, whose files are everything below it (names starting with `.`
 * are skipped). Read once, at startup, for `createServer({ skills })`; nothing is read from disk
 * while serving. Refused with a {@link StartupError}: a missing folder, a symlink that leads
 * out of the folder, a file over `maxFileBytes`, and anything that is neither file nor folder.
 *
 * @example
 * ```ts
 * import { loadSkills } from '@mcp-fw/core/node';
 * // skills/git-workflow/SKILL.md, skills/git-workflow/references/RELEASES.md, …
 * createServer({ name: 'repo', version: '1.0.0', skills: loadSkills(new URL('../skills', import.meta.url)) });
 * ```
 */
export function loadSkills(folder: string | URL, options: LoadSkillsOptions = {}): SkillSource[] {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const given = typeof folder === 'string' ? resolve(folder) : fileURLToPath(folder);
  let root: string;
  try {
    root = realpathSync(given);
  } catch {
    throw refuse(
      `Skills folder ${given} does not exist; create it (one folder per skill, each with a SKILL.md) or fix the path given to loadSkills`,
    );
  }
  if (!statSync(root).isDirectory())
    throw refuse(
      `Skills folder ${given} is a file; loadSkills takes the folder holding the skills`,
    );

  // Every file below the root, by its `/`-separated path, read now.
  const files = new Map<string, Uint8Array>();
  const visited = new Set<string>([root]);
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const shown = rel ? `${rel}/${name}` : name;
      let target = path;
      if (lstatSync(path).isSymbolicLink()) {
        target = realpathSafe(path, given, shown);
        if (target !== root && !target.startsWith(root + sep))
          throw refuse(
            `Skills folder ${given}: ${shown} is a symlink to ${target}, outside the folder; a skill serves only what is inside its folder, so copy the file in instead`,
          );
      }
      const stat = statSync(target);
      if (stat.isDirectory()) {
        // A symlinked folder seen before would loop.
        if (visited.has(target)) continue;
        visited.add(target);
        walk(target, shown);
      } else if (stat.isFile()) {
        if (stat.size > maxFileBytes)
          throw refuse(
            `Skills folder ${given}: ${shown} is ${stat.size} bytes, over the limit of ${maxFileBytes} (loadSkills maxFileBytes); shrink it, move it out of the skill, or raise maxFileBytes`,
          );
        files.set(shown, readFileSync(target));
      } else {
        throw refuse(
          `Skills folder ${given}: ${shown} is neither a file nor a folder; remove it from the skills folder`,
        );
      }
    }
  };
  walk(root, '');

  if (files.has('SKILL.md'))
    throw refuse(
      `Skills folder ${given} has a SKILL.md of its own; put each skill in a folder named after it (skills/<name>/SKILL.md)`,
    );
  const skills: SkillSource[] = [];
  for (const path of files.keys()) {
    if (path !== 'SKILL.md' && !path.endsWith('/SKILL.md')) continue;
    const skillPath = path.slice(0, -'/SKILL.md'.length);
    const own: Record<string, Uint8Array> = {};
    for (const [file, bytes] of files)
      if (file.startsWith(`${skillPath}/`)) own[file.slice(skillPath.length + 1)] = bytes;
    skills.push({ path: skillPath, files: own });
  }
  return skills;
}

function realpathSafe(path: string, given: string, shown: string): string {
  try {
    return realpathSync(path);
  } catch {
    throw refuse(
      `Skills folder ${given}: ${shown} is a symlink to nothing (${relative(given, path)}); remove it or point it at a file inside the folder`,
    );
  }
}
