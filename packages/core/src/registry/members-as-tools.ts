import type { JsonSchema } from '../schema/index.js';
import { builtInTool } from './built-in-tool.js';
import type { CallToolResult } from './content.js';
import { findResource, getPrompt, readMatch } from './invoke-member.js';
import type { Registry } from './registry.js';
import type { ToolDefinition } from './tool-definition.js';
import { InvalidArgumentsError, ResourceNotFoundError, UserError } from './errors.js';

/**
 * Which of a server's other members are also served as tools, for clients that only call
 * tools: `resources` adds `list_resources` and `read_resource`, `prompts` adds `list_prompts`
 * and `get_prompt`. Only members that declare no OAuth scopes and no middleware of their own
 * (`@Use`, or a mounted server's) are reachable this way: the tool call would skip them, and
 * either may be what guards the member.
 *
 * @example
 * ```ts
 * server.exposeAsTools({ resources: true, prompts: true });
 * // a tool-only client: callTool('read_resource', { uri: 'notes://today' })
 * ```
 */
export interface ExposeAsTools {
  readonly resources?: boolean;
  readonly prompts?: boolean;
}

function tool(
  name: string,
  description: string,
  inputSchema: JsonSchema,
  handler: (args: Record<string, unknown>, ctx: unknown) => Promise<CallToolResult>,
): ToolDefinition {
  // Not found and bad arguments are the caller's mistakes: said as such, never masked.
  return builtInTool('server.exposeAsTools', name, description, inputSchema, (args, ctx) =>
    handler(args, ctx).catch((error: unknown) => {
      if (error instanceof ResourceNotFoundError || error instanceof InvalidArgumentsError)
        throw new UserError(error.message);
      throw error;
    }),
  );
}

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
});

// Reached through a tool call, a member's own scopes and middleware (`@Use`, a mounted server's)
// would be skipped — and either may be what guards it — so only members with neither are.
const open = (m: { readonly scopes: readonly string[]; readonly middleware: readonly unknown[] }) =>
  m.scopes.length === 0 && m.middleware.length === 0;

/**
 * The tools {@link ExposeAsTools} asks for, reading `registry()` at each call so they follow
 * runtime changes.
 */
export function membersAsTools(expose: ExposeAsTools, registry: () => Registry): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  if (expose.resources) {
    tools.push(
      tool(
        'list_resources',
        'Lists the resources and resource templates this server can read with read_resource.',
        { type: 'object', properties: {}, additionalProperties: false },
        async () => {
          const r = registry();
          return json({
            resources: r.resources.filter(open).map(({ uri, name, description, mimeType }) => ({
              uri,
              name,
              description,
              mimeType,
            })),
            templates: r.templates
              .filter(open)
              .map(({ uriTemplate, name, description, mimeType }) => ({
                uriTemplate,
                name,
                description,
                mimeType,
              })),
          });
        },
      ),
      tool(
        'read_resource',
        'Reads a resource by URI (one listed by list_resources, or matching one of its templates).',
        {
          type: 'object',
          properties: { uri: { type: 'string', description: 'The resource URI' } },
          required: ['uri'],
          additionalProperties: false,
        },
        async ({ uri }, ctx) => {
          const found = findResource(registry(), uri as string);
          if (found && !open(found.member))
            throw new UserError(
              `${uri as string} declares OAuth scopes or middleware, so it is not readable through read_resource; read it with resources/read.`,
            );
          const contents = await readMatch(found, uri as string, ctx);
          return {
            content: contents.map((c) =>
              'text' in c && typeof c.text === 'string'
                ? { type: 'text' as const, text: c.text }
                : { type: 'resource' as const, resource: c },
            ),
          };
        },
      ),
    );
  }
  if (expose.prompts) {
    tools.push(
      tool(
        'list_prompts',
        'Lists the prompts this server can render with get_prompt, with their arguments.',
        { type: 'object', properties: {}, additionalProperties: false },
        async () =>
          json({
            prompts: registry()
              .prompts.filter(open)
              .map(({ name, description, arguments: args }) => ({
                name,
                description,
                arguments: args,
              })),
          }),
      ),
      tool(
        'get_prompt',
        'Renders a prompt by name with its arguments; returns its messages.',
        {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The prompt name' },
            arguments: {
              type: 'object',
              additionalProperties: { type: 'string' },
              description: 'The prompt arguments, by name',
            },
          },
          required: ['name'],
          additionalProperties: false,
        },
        async ({ name, arguments: args }, ctx) => {
          const prompt = registry().prompt(name as string);
          if (!prompt || !open(prompt))
            throw new UserError(
              `No prompt "${name as string}" is available through get_prompt; list_prompts names those that are.`,
            );
          return json(await getPrompt(prompt, args ?? {}, ctx));
        },
      ),
    );
  }
  return tools;
}
