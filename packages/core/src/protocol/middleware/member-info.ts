import type {
  PromptDefinition,
  ResourceDefinition,
  TemplateDefinition,
  ToolDefinition,
} from '../../registry/index.js';

/** A member as middleware sees it: what its decorator declared. */
export interface MemberInfo {
  readonly kind: 'tool' | 'resource' | 'template' | 'prompt';
  /** The tool's or prompt's name; the resource's `name`. */
  readonly name: string;
  /** The resource's URI, or the template's URI template. */
  readonly uri?: string;
  readonly title?: string;
  readonly description?: string;
  /** Tool annotations (`readOnlyHint`, …) or resource annotations. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** OAuth scopes it requires. */
  readonly scopes: readonly string[];
  /** The `_meta` it declared. */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

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
