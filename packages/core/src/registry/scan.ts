import { classRecords, TOOL_KIND, type ArgRecord, type MemberKey } from '../decorators/index.js';
import { ValidatorCompiler } from '../schema/index.js';
import { buildTool } from './build-tool.js';
import { StartupError } from './errors.js';
import type { ToolDefinition } from './tool-definition.js';

/** A class to instantiate with no arguments, or an instance the user built with its dependencies. */
export type Provider = (new () => object) | object;

/** Everything the registry learned from the providers, in registration order. */
export interface ScanResult {
  readonly tools: readonly ToolDefinition[];
}

/**
 * Turns providers into definitions: resolves decorator records (parents first, so subclasses
 * inherit and may add tools), converts schemas and compiles validators, once.
 */
export function scanProviders(providers: readonly Provider[]): ScanResult {
  const compiler = new ValidatorCompiler();
  const tools: ToolDefinition[] = [];
  for (const provider of providers) {
    const instance = instantiate(provider);
    const ctor = instance.constructor as Function;
    const records = classRecords(ctor);
    if (records.length === 0) {
      throw new StartupError(
        'INVALID_PROVIDER',
        `${ctor.name || 'an anonymous class'} has no @Tool methods. Fix: decorate at least one method, ` +
          'or check that "experimentalDecorators" in tsconfig.json matches how the file is compiled.',
      );
    }
    const args = new Map<MemberKey, ArgRecord[]>();
    for (const record of records) for (const [key, list] of record.args) args.set(key, [...(args.get(key) ?? []), ...list]);
    for (const record of records) {
      for (const member of record.members.get(TOOL_KIND) ?? []) {
        tools.push(
          buildTool({
            className: ctor.name,
            receiver: member.isStatic ? ctor : instance,
            record: member,
            args: args.get(member.key) ?? [],
            compiler,
          }),
        );
      }
    }
  }
  return { tools };
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
