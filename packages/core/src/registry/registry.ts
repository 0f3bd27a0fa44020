import { StartupError } from './errors.js';
import { scanProviders, type Provider } from './scan.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The frozen tables a server serves. Built once at startup; `version` changes whenever the
 * tables do, so list results can be serialised once per version.
 */
export class Registry {
  readonly version = 1;
  readonly tools: readonly ToolDefinition[];
  readonly #toolsByName: ReadonlyMap<string, ToolDefinition>;

  private constructor(tools: readonly ToolDefinition[]) {
    const byName = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      const existing = byName.get(tool.name);
      if (existing) {
        throw new StartupError(
          'DUPLICATE_NAME',
          `Duplicate tool name "${tool.name}": ${existing.origin} and ${tool.origin}. ` +
            "Tool names must be unique; rename one with @Tool({ name: '...' }).",
        );
      }
      byName.set(tool.name, tool);
    }
    this.tools = Object.freeze([...tools]);
    this.#toolsByName = byName;
    Object.freeze(this);
  }

  /** Scans the providers and builds the registry; throws {@link StartupError} on any problem. */
  static build(providers: readonly Provider[]): Registry {
    return new Registry(scanProviders(providers).tools);
  }

  tool(name: string): ToolDefinition | undefined {
    return this.#toolsByName.get(name);
  }
}
