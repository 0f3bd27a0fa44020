import type {
  PromptDefinition,
  ResourceDefinition,
  TemplateDefinition,
  ToolDefinition,
} from '../../registry/index.js';
import type { MemberInfo } from './types.js';

type Definition = ToolDefinition | PromptDefinition | ResourceDefinition | TemplateDefinition;

// Built once per definition (definitions are frozen and replaced, never changed).
const infos = new WeakMap<Definition, MemberInfo>();

/** What middleware sees of a member: its declared name, annotations, scopes and `_meta`. */
export function memberInfo(kind: MemberInfo['kind'], definition: Definition): MemberInfo {
  let info = infos.get(definition);
  if (!info) {
    const d = definition as Partial<ToolDefinition & ResourceDefinition & TemplateDefinition>;
    info = Object.freeze({
      kind,
      name: d.name as string,
      uri: d.uri ?? d.uriTemplate,
      title: d.title,
      description: d.description,
      annotations: d.annotations as Record<string, unknown> | undefined,
      scopes: d.scopes ?? [],
      _meta: d._meta,
    });
    infos.set(definition, info);
  }
  return info;
}
