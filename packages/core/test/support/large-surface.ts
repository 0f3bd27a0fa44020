import { readFileSync } from 'node:fs';
import { Tool } from '@mcp-fw/core';

/** A compact description of a GitHub-like REST surface (committed fixture). */
interface SurfaceFile {
  generic: string[];
  resources: {
    name: string;
    plural: string;
    about: string;
    scope: 'repo' | 'org' | 'user';
    id: string;
    extra: string[];
  }[];
}

export interface GeneratedTool {
  name: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, { type: string; description: string }>;
    required: string[];
  };
}

const WHERE = { repo: 'in a repository', org: 'in an organization', user: 'of a user' };
const SCOPE_ARGS = {
  repo: {
    owner: 'The account that owns the repository',
    repo: 'The repository name',
  },
  org: { org: 'The organization name' },
  user: { username: 'The user handle' },
};

const words = (s: string) => s.replace(/_/g, ' ');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function summary(action: string, r: SurfaceFile['resources'][number]): string {
  const where = WHERE[r.scope];
  switch (action) {
    case 'list':
      return `Lists ${r.plural} ${where}. Each is ${r.about}.`;
    case 'get':
      return `Gets ${r.about} by its ${words(r.id)}.`;
    case 'create':
      return `Creates ${r.about} ${where}.`;
    case 'update':
      return `Updates ${r.about}: changes its fields.`;
    case 'delete':
      return `Deletes ${r.about}.`;
    case 'search':
      return `Searches ${r.plural} by keywords and qualifiers.`;
    case 'list_for_org':
      return `Lists ${r.plural} across an organization.`;
    case 'list_for_user':
      return `Lists ${r.plural} of a given user.`;
    case 'list_for_authenticated_user':
      return `Lists ${r.plural} of the signed-in user (you).`;
    case 'list_events':
      return `Lists the timeline events of ${r.about}.`;
    case 'export':
      return `Exports ${r.plural} ${where} as a CSV or JSON file.`;
    case 'count':
      return `Counts ${r.plural} ${where}.`;
    default:
      return `${cap(words(action))}: for ${r.about}.`;
  }
}

function args(action: string, r: SurfaceFile['resources'][number]) {
  const props: Record<string, { type: string; description: string }> = {};
  for (const [k, v] of Object.entries(SCOPE_ARGS[r.scope]))
    props[k] = { type: 'string', description: v };
  const required = Object.keys(props);
  const takesId =
    !['list', 'create', 'search', 'export'].includes(action) && !action.startsWith('list_for');
  if (takesId && !(r.id in props)) {
    props[r.id] = { type: 'string', description: `The ${words(r.id)} of the ${words(r.name)}` };
    required.push(r.id);
  }
  if (action.startsWith('list') || action === 'search') {
    props.per_page = { type: 'integer', description: 'Results per page (max 100)' };
    props.page = { type: 'integer', description: 'Page number of the results' };
  }
  if (action === 'search') {
    props.q = { type: 'string', description: 'The search query, with qualifiers' };
    required.push('q');
  }
  if (action === 'create' || action === 'update')
    props.fields = { type: 'object', description: `The ${words(r.name)} fields to set` };
  return { type: 'object' as const, properties: props, required };
}

/** The 1,000 tools, in a fixed order, from the committed description file. */
export function largeSurface(): GeneratedTool[] {
  const file = JSON.parse(
    readFileSync(new URL('../fixtures/large-surface/github-surface.json', import.meta.url), 'utf8'),
  ) as SurfaceFile;
  const tools: GeneratedTool[] = [];
  for (const r of file.resources)
    for (const action of [...file.generic, ...r.extra])
      tools.push({
        name: `${r.name}_${action}`,
        description: summary(action, r),
        inputSchema: args(action, r),
      });
  return tools;
}

/** A provider class serving `tools`, each answering with its own name and arguments. */
export function surfaceProvider(tools: readonly GeneratedTool[]): new () => object {
  class Surface {}
  for (const t of tools) {
    Object.defineProperty(Surface.prototype, t.name, {
      value: (input: unknown) => ({ tool: t.name, input }),
      writable: true,
      configurable: true,
    });
    Tool({ description: t.description, input: t.inputSchema })(Surface.prototype, t.name);
  }
  return Surface;
}
