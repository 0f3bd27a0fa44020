import { JsonRpcError } from '../../jsonrpc/index.js';
import type { SkillCatalog } from '../../registry/index.js';
import { ErrorCode } from '../error-codes.js';
import { SKILLS_EXTENSION } from '../eras/extension-ids.js';
import { page } from '../pagination.js';
import type { MethodSpec, ServerCore } from '../server-core.js';
import { validateUri } from '../uri-guard.js';

/**
 * The `capabilities.extensions` entry of a server that serves skills: it answers `skills/list`,
 * `skills/get` and `resources/directory/read` for every directory of its skills.
 */
export function skillsCapability(core: ServerCore): Record<string, unknown> | undefined {
  return core.skills ? { [SKILLS_EXTENSION]: { directoryRead: true } } : undefined;
}

// A server that does not declare the extension does not know its methods (the spec: "responds
// as the base protocol specifies for an unknown method").
function catalogOf(core: ServerCore, method: string): SkillCatalog {
  if (!core.skills) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  return core.skills;
}

/** `skills/list`: every skill's entry (frontmatter and files with digests), paginated. */
export const skillsList: MethodSpec = {
  handle(params, _record, { core }) {
    const { items, nextCursor } = page(
      catalogOf(core, 'skills/list').entries,
      params?.cursor,
      core.pageSize,
    );
    return nextCursor ? { skills: items, nextCursor } : { skills: items };
  },
};

/** `skills/get`: the entry of the skill whose `SKILL.md` is `params.uri`, listed or not. */
export const skillsGet: MethodSpec = {
  handle(params, _record, { core }) {
    const catalog = catalogOf(core, 'skills/get');
    const uri = validateUri(params?.uri);
    const skill = catalog.entry(uri);
    if (!skill)
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `No skill is served at ${uri}; skills/get takes the URI of a skill's SKILL.md, as skills/list gives it`,
        { uri },
      );
    return { skill };
  },
};

/** `resources/directory/read`: the direct children of a skill directory, paginated. */
export const directoryRead: MethodSpec = {
  handle(params, _record, { core }) {
    const catalog = catalogOf(core, 'resources/directory/read');
    const uri = validateUri(params?.uri);
    const children = catalog.directory(uri);
    if (!children)
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `${uri} is not a directory resource; resources/directory/read takes a skill directory such as skill://<name> or skill://<name>/references (no trailing slash)`,
        { uri },
      );
    const { items, nextCursor } = page(children, params?.cursor, core.pageSize);
    return nextCursor ? { resources: items, nextCursor } : { resources: items };
  },
};
