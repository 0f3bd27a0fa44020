import { LIST_NAMES, type ChangedMember, type ListName } from './list-changed.js';
import type { ServerCore } from './server-core.js';
import type { MemberKind, Registry } from '../registry/index.js';

type Scoped = { readonly scopes: readonly string[] };

/** Each list's members in `registry`, as `listed` judges them. */
function membersOf(registry: Registry, list: ListName): Map<Scoped, ChangedMember> {
  const out = new Map<Scoped, ChangedMember>();
  const put = <T extends Scoped>(
    kind: ChangedMember['kind'],
    items: readonly T[],
    nameOf: (m: T) => string,
  ) => {
    for (const m of items) out.set(m, { kind, name: nameOf(m), scopes: m.scopes });
  };
  if (list === 'tools') put('tool', registry.tools, (t) => t.name);
  else if (list === 'prompts') put('prompt', registry.prompts, (p) => p.name);
  else {
    put('resource', registry.resources, (r) => r.uri);
    put('template', registry.templates, (t) => t.uriTemplate);
  }
  return out;
}

/**
 * Tells clients which lists differ between two registries, each change naming the members that
 * came or went, so a caller whose lists show none of them (`listed`: a token without their
 * scopes) is not told. A change nobody could see (a disabled member removed) is not announced.
 */
export function announceChanges(core: ServerCore, before: Registry, after: Registry): boolean {
  let any = false;
  for (const list of LIST_NAMES) {
    const was = membersOf(before, list);
    const now = membersOf(after, list);
    const changes: ChangedMember[] = [];
    for (const [item, member] of was) if (!now.has(item)) changes.push(member);
    for (const [item, member] of now) if (!was.has(item)) changes.push(member);
    if (changes.length > 0) core.hub.listChanged(list, changes);
    any ||= changes.length > 0;
  }
  return any;
}

/**
 * Runtime control of one kind of member (tools, prompts or resources). Every change swaps in a
 * new registry and tells each connected client that the list changed.
 *
 * @example
 * ```ts
 * server.tools.disable('delete_everything');
 * server.prompts.remove('old_prompt');
 * server.resources.updated('file:///logs/app.log');
 * ```
 */
export class MemberControl {
  constructor(
    protected readonly core: ServerCore,
    private readonly kinds: readonly MemberKind[],
    private readonly list: ListName,
  ) {}

  /** The names (URIs and URI templates for resources) currently served, in list order. */
  names(): string[] {
    const r = this.core.registry;
    return this.kinds.flatMap((kind) =>
      kind === 'tool'
        ? r.tools.map((t) => t.name)
        : kind === 'prompt'
          ? r.prompts.map((p) => p.name)
          : kind === 'resource'
            ? r.resources.map((x) => x.uri)
            : r.templates.map((t) => t.uriTemplate),
    );
  }

  /**
   * Tells clients the list changed without a registry change — for lists computed on demand,
   * such as a template's `list` handler enumerating files that just appeared. Only clients
   * whose lists show at least one of its members are told.
   */
  changed(): void {
    this.core.hub.listChanged(this.list, [...membersOf(this.core.registry, this.list).values()]);
  }

  /** Removes a member for good; returns false when there was none by that name. */
  remove(name: string): boolean {
    return this.#apply(this.core.registry.without(this.#kind(name), name));
  }

  /** Hides a member from lists and calls until {@link enable}; throws for an unknown name. */
  disable(name: string): void {
    this.#apply(this.core.registry.withEnabled(this.#kind(name), name, false));
  }

  /** Shows a member hidden with `disable` again. */
  enable(name: string): void {
    this.#apply(this.core.registry.withEnabled(this.#kind(name), name, true));
  }

  #kind(name: string): MemberKind {
    if (this.kinds.length === 1) return this.kinds[0];
    return name.includes('{') ? 'template' : 'resource';
  }

  #apply(next: Registry | undefined): boolean {
    if (!next) return false;
    const before = this.core.registry;
    this.core.registry = next;
    announceChanges(this.core, before, next);
    return true;
  }
}

/** {@link MemberControl} for resources, plus change notifications for subscribers. */
export class ResourceControl extends MemberControl {
  constructor(core: ServerCore) {
    super(core, ['resource', 'template'], 'resources');
  }

  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  updated(uri: string): void {
    this.core.hub.resourceUpdated(uri);
  }
}
