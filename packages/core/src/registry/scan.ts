import {
  classRecords,
  PROMPT_KIND,
  RESOURCE_KIND,
  TOOL_KIND,
  type ArgRecord,
  type MemberKey,
  type MemberRecord,
} from '../decorators/index.js';
import { ValidatorCompiler } from '../schema/index.js';
import { buildPrompt } from './build-prompt.js';
import { buildResource } from './build-resource.js';
import { buildTool } from './build-tool.js';
import { StartupError } from './errors.js';
import type { MemberSource } from './member-method.js';
import type { PromptDefinition } from './prompt-definition.js';
import type { ResourceDefinition, TemplateDefinition } from './resource-definition.js';
import type { ToolDefinition } from './tool-definition.js';
import { classSchemas, missingClassHint, typeSchemaOf, type TypeSchemas } from './type-schemas.js';

/** A class to instantiate with no arguments, or an instance the user built with its dependencies. */
export type Provider = (new () => object) | object;

/** Everything the registry learned from the providers, in registration order. */
export interface Members {
  readonly tools: readonly ToolDefinition[];
  readonly resources: readonly ResourceDefinition[];
  readonly templates: readonly TemplateDefinition[];
  readonly prompts: readonly PromptDefinition[];
}

/**
 * Turns providers into definitions: resolves decorator records (parents first, so subclasses
 * inherit and may add members), converts schemas and compiles validators, once.
 */
export function scanProviders(providers: readonly Provider[], schemas?: TypeSchemas): Members {
  const compiler = new ValidatorCompiler();
  const members = {
    tools: [] as ToolDefinition[],
    resources: [] as ResourceDefinition[],
    templates: [] as TemplateDefinition[],
    prompts: [] as PromptDefinition[],
  };
  for (const provider of providers) {
    const instance = instantiate(provider);
    const ctor = instance.constructor as Function;
    const records = classRecords(ctor);
    if (records.length === 0 || records.every((r) => r.members.size === 0)) {
      throw new StartupError(
        'INVALID_PROVIDER',
        `${ctor.name || 'an anonymous class'} has no @Tool, @Resource or @Prompt methods. Fix: decorate at least one method, ` +
          'or check that "experimentalDecorators" in tsconfig.json matches how the file is compiled.',
      );
    }
    const args = new Map<MemberKey, ArgRecord[]>();
    for (const record of records)
      for (const [key, list] of record.args) args.set(key, [...(args.get(key) ?? []), ...list]);
    // A subclass that re-decorates an inherited method replaces the parent's member.
    const byKey = new Map<string, MemberRecord<unknown>>();
    for (const record of records) {
      for (const [kind, list] of record.members)
        for (const member of list) byKey.set(`${kind}\0${String(member.key)}`, member);
    }
    const derived = classSchemas(
      schemas,
      ctor,
      [...byKey.values()].map((m) => m.key),
    );
    const schemasHint = schemas && !derived ? missingClassHint(schemas, ctor.name) : undefined;
    for (const record of records) {
      for (const [kind, list] of record.members) {
        for (const member of list) {
          if (byKey.get(`${kind}\0${String(member.key)}`) !== member) continue;
          const source: MemberSource = {
            className: ctor.name,
            receiver: member.isStatic ? ctor : instance,
            record: member,
            args: args.get(member.key) ?? [],
            compiler,
            derived: typeSchemaOf(derived, member.key),
            schemasHint,
          };
          if (kind === TOOL_KIND) members.tools.push(buildTool(source));
          else if (kind === PROMPT_KIND) members.prompts.push(buildPrompt(source));
          else if (kind === RESOURCE_KIND) {
            const built = buildResource(source);
            if ('uriTemplate' in built) members.templates.push(built);
            else members.resources.push(built);
          }
        }
      }
    }
  }
  return members;
}

function instantiate(provider: Provider): object {
  if (typeof provider !== 'function') return provider;
  try {
    return new (provider as new () => object)();
  } catch (error) {
    throw new StartupError(
      'INVALID_PROVIDER',
      `Cannot construct ${provider.name} with no arguments (${error instanceof Error ? error.message : error}). ` +
        `Fix: pass an instance instead, e.g. providers: [new ${provider.name}(deps)].`,
    );
  }
}
