import { Prompt, Tool, type McpFwServer, type MemberControl, type Provider } from '@mcp-fw/core';
import { NO_ARGUMENTS } from './fixtures.js';

/** The tool the tool trigger adds and removes. */
export class DynamicTool {
  @Tool({
    name: 'test_dynamic_tool',
    description: 'Comes and goes with test_trigger_tool_change',
    input: NO_ARGUMENTS,
  })
  dynamicTool() {
    return 'This tool was added at runtime.';
  }
}

/** The prompt the prompt trigger adds and removes. */
export class DynamicPrompt {
  @Prompt({
    name: 'test_dynamic_prompt',
    description: 'Comes and goes with test_trigger_prompt_change',
  })
  dynamicPrompt() {
    return 'This prompt was added at runtime.';
  }
}

/**
 * Tools that change the server's tool or prompt list, so that `subscriptions/listen` streams
 * (and legacy sessions) see `list_changed` notifications. Each call toggles one member, so the
 * lists return to their start state after an even number of calls.
 */
export class ListTriggers {
  constructor(private readonly server: McpFwServer) {}

  @Tool({
    name: 'test_trigger_tool_change',
    description: 'Adds test_dynamic_tool, or removes it if present',
    input: NO_ARGUMENTS,
  })
  triggerToolChange() {
    return toggle(this.server, this.server.tools, 'test_dynamic_tool', new DynamicTool());
  }

  @Tool({
    name: 'test_trigger_prompt_change',
    description: 'Adds test_dynamic_prompt, or removes it if present',
    input: NO_ARGUMENTS,
  })
  triggerPromptChange() {
    return toggle(this.server, this.server.prompts, 'test_dynamic_prompt', new DynamicPrompt());
  }
}

function toggle(
  server: McpFwServer,
  members: MemberControl,
  name: string,
  provider: Provider,
): string {
  if (members.remove(name)) return `Removed ${name}.`;
  server.add(provider);
  return `Added ${name}.`;
}
