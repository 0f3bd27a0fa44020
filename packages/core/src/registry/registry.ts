import { StartupError } from './errors.js';
import type { PromptDefinition } from './prompt-definition.js';
import type { ResourceDefinition, TemplateDefinition } from './resource-definition.js';
import { scanProviders, type Members, type Provider } from './scan.js';
import type { ToolDefinition } from './tool-definition.js';
import { newestVersions, versionOf } from './tool-versions.js';
import type { TypeSchemas } from './type-schemas.js';
import { checkToolViews } from './views.js';

/** The four member tables; each change to one of them is announced by its own `list_changed`. */
export type MemberKind = 'tool' | 'resource' | 'template' | 'prompt';

const TABLE: Record<MemberKind, keyof Members> = {
  tool: 'tools',
  resource: 'resources',
  template: 'templates',
  prompt: 'prompts',
};

function keyOf(kind: MemberKind, member: object): string {
  const m = member as { name?: string; uri?: string; uriTemplate?: string };
  return (kind === 'resource' ? m.uri : kind === 'template' ? m.uriTemplate : m.name) as string;
}

const EMPTY: Members = { tools: [], resources: [], templates: [], prompts: [] };

/**
 * What a server serves besides its own providers' members, and how it reshapes them: the
 * members of mounted servers (already namespaced) and the transforms and filters, applied to
 * own and mounted members alike. Kept by every registry derived from this one, so adding
 * providers or disabling a member keeps the mounts and transforms.
 */
export interface Composition {
  readonly mounted: Members;
  readonly shape: (members: Members) => Members;
}

const PLAIN: Composition = Object.freeze({ mounted: EMPTY, shape: (members: Members) => members });

function joined(a: Members, b: Members): Members {
  if (b === EMPTY) return a;
  return {
    tools: [...a.tools, ...b.tools],
    resources: [...a.resources, ...b.resources],
    templates: [...a.templates, ...b.templates],
    prompts: [...a.prompts, ...b.prompts],
  };
}

/**
 * The frozen tables a server serves. Never mutated: a runtime change builds a new registry with
 * a higher `version`, so list results can be serialised once per version and a request that is
 * being served keeps the tables it started with.
 */
export class Registry {
  readonly version: number;
  readonly tools: readonly ToolDefinition[];
  readonly resources: readonly ResourceDefinition[];
  readonly templates: readonly TemplateDefinition[];
  readonly prompts: readonly PromptDefinition[];
  readonly #all: Members;
  // What is served before `disabled` applies: own and mounted members, transformed.
  readonly #served: Members;
  readonly #composition: Composition;
  readonly #disabled: ReadonlySet<string>;
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #resources = new Map<string, ResourceDefinition>();

  private constructor(
    all: Members,
    disabled: ReadonlySet<string>,
    version: number,
    composition: Composition = PLAIN,
  ) {
    const combined = joined(all, composition.mounted);
    for (const kind of Object.keys(TABLE) as MemberKind[]) checkUnique(kind, combined[TABLE[kind]]);
    const served = composition === PLAIN ? combined : composition.shape(combined);
    if (served !== combined)
      for (const kind of Object.keys(TABLE) as MemberKind[]) checkUnique(kind, served[TABLE[kind]]);
    checkToolViews(served.tools, served.resources);
    const enabled = <T extends object>(kind: MemberKind, list: readonly T[]) =>
      Object.freeze(list.filter((m) => !disabled.has(`${kind}:${keyOf(kind, m)}`)));
    this.#all = all;
    this.#served = served;
    this.#composition = composition;
    this.#disabled = disabled;
    this.version = version;
    // Of several versions of one tool, clients are served the newest (see tool-versions.ts).
    this.tools = enabled('tool', newestVersions(served.tools));
    this.resources = enabled('resource', served.resources);
    this.templates = enabled('template', served.templates);
    this.prompts = enabled('prompt', served.prompts);
    for (const t of this.tools) this.#tools.set(t.name, t);
    for (const p of this.prompts) this.#prompts.set(p.name, p);
    for (const r of this.resources) this.#resources.set(r.uri, r);
    Object.freeze(this);
  }

  /**
   * Scans the providers and builds the registry, with `resources` served beside theirs (the
   * files of skills); throws {@link StartupError} on any problem.
   */
  static build(
    providers: readonly Provider[],
    schemas?: TypeSchemas,
    resources: readonly ResourceDefinition[] = [],
  ): Registry {
    const members = scanProviders(providers, schemas);
    if (resources.length === 0) return new Registry(members, new Set(), 1);
    return new Registry(
      { ...members, resources: [...members.resources, ...resources] },
      new Set(),
      1,
    );
  }

  /** A registry with the providers' members added (names checked as at startup). */
  withProviders(
    providers: readonly Provider[],
    schemas?: TypeSchemas,
  ): { registry: Registry; added: Members } {
    const added = scanProviders(providers, schemas);
    const all: Members = {
      tools: [...this.#all.tools, ...added.tools],
      resources: [...this.#all.resources, ...added.resources],
      templates: [...this.#all.templates, ...added.templates],
      prompts: [...this.#all.prompts, ...added.prompts],
    };
    return {
      registry: new Registry(all, this.#disabled, this.version + 1, this.#composition),
      added,
    };
  }

  /**
   * A registry serving the same own members with other mounted members and transforms (what
   * `server.mount` and `server.transform` build); names are checked as at startup.
   */
  withComposition(composition: Composition): Registry {
    return new Registry(this.#all, this.#disabled, this.version + 1, composition);
  }

  /** The registry's own members (from its providers), before mounts and transforms. */
  get own(): Members {
    return this.#all;
  }

  /** A registry without the given member; undefined when there is no such member. */
  without(kind: MemberKind, key: string): Registry | undefined {
    const table = TABLE[kind];
    const list = this.#all[table] as readonly object[];
    if (!list.some((m) => keyOf(kind, m) === key)) return undefined;
    const disabled = new Set(this.#disabled);
    disabled.delete(`${kind}:${key}`);
    return new Registry(
      { ...this.#all, [table]: list.filter((m) => keyOf(kind, m) !== key) },
      disabled,
      this.version + 1,
      this.#composition,
    );
  }

  /** A registry with the member enabled or disabled; undefined when nothing changes. */
  withEnabled(kind: MemberKind, key: string, enabled: boolean): Registry | undefined {
    const list = this.#served[TABLE[kind]] as readonly object[];
    if (!list.some((m) => keyOf(kind, m) === key)) {
      throw new Error(`No ${kind} ${JSON.stringify(key)} is registered.`);
    }
    const id = `${kind}:${key}`;
    if (this.#disabled.has(id) === !enabled) return undefined;
    const disabled = new Set(this.#disabled);
    if (enabled) disabled.delete(id);
    else disabled.add(id);
    return new Registry(this.#all, disabled, this.version + 1, this.#composition);
  }

  tool(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  prompt(name: string): PromptDefinition | undefined {
    return this.#prompts.get(name);
  }

  resource(uri: string): ResourceDefinition | undefined {
    return this.#resources.get(uri);
  }

  /** The first template (in registration order) that matches `uri`, with its decoded variables. */
  matchTemplate(
    uri: string,
  ): { template: TemplateDefinition; variables: Record<string, string> } | undefined {
    for (const template of this.templates) {
      const variables = template.template.match(uri);
      if (variables) return { template, variables };
    }
    return undefined;
  }

  static empty(): Registry {
    return new Registry(EMPTY, new Set(), 1);
  }
}

const HOW_TO_RENAME: Record<MemberKind, string> = {
  tool: "Tool names must be unique; rename one with @Tool({ name: '...' }).",
  prompt: "Prompt names must be unique; rename one with @Prompt({ name: '...' }).",
  resource: 'Each resource URI may be registered once; change one of the URIs.',
  template: 'Each URI template may be registered once; change one of them.',
};

// When one of the two came from a mounted server, how to fix it there.
const HOW_TO_FIX_MOUNTED: Record<MemberKind, string> = {
  tool: ' Or mount its server under another namespace.',
  prompt: ' Or mount its server under another namespace.',
  resource: ' (Mounting keeps resource URIs as they are.)',
  template: ' (Mounting keeps URI templates as they are.)',
};

function checkUnique(kind: MemberKind, members: readonly object[]): void {
  const seen = new Map<string, string>();
  // Tools of one name that all declare distinct versions are versions side by side; beside an
  // unversioned tool of that name, a versioned one is a duplicate as before.
  const byName = new Map<string, { versioned: boolean; origin: string }>();
  for (const member of members) {
    const version = kind === 'tool' ? versionOf(member as ToolDefinition) : undefined;
    const origin = (member as { origin: string }).origin;
    const name = keyOf(kind, member);
    const other = byName.get(name);
    let key = version === undefined ? name : `${name}" version "${version}`;
    if (other && other.versioned !== (version !== undefined)) {
      key = name;
      seen.set(key, other.origin);
    }
    byName.set(name, { versioned: version !== undefined, origin });
    const existing = seen.get(key);
    if (existing !== undefined) {
      const what =
        kind === 'tool' || kind === 'prompt'
          ? `${kind} name`
          : kind === 'resource'
            ? 'resource URI'
            : 'URI template';
      throw new StartupError(
        'DUPLICATE_NAME',
        `Duplicate ${what} "${key}": ${existing} and ${origin}. ${HOW_TO_RENAME[kind]}` +
          (`${existing}${origin}`.includes(' (mounted as "') ? HOW_TO_FIX_MOUNTED[kind] : ''),
      );
    }
    seen.set(key, origin);
  }
}
