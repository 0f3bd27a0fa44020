import { Tool, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { ENUMS, WITH_DEFAULTS } from './elicitation-forms.js';
import { NO_ARGUMENTS, sampledText, sleep } from './fixtures.js';

const SamplingInput = z.object({
  prompt: z.string().describe('The prompt to send to the client model'),
});
const ElicitationInput = z.object({ message: z.string().describe('The message to show the user') });

/** The form of `test_elicitation`: both fields required strings. */
const Contact = z.object({ username: z.string(), email: z.string() });

/** Tools that talk back to the client while they run: logs, progress, sampling, elicitation. */
export class InteractiveTools {
  @Tool({
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs',
    input: NO_ARGUMENTS,
  })
  async withLogging(_args: object, ctx: Context) {
    ctx.log.info('Tool execution started');
    await sleep(50);
    ctx.log.info('Tool processing data');
    await sleep(50);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100',
    input: NO_ARGUMENTS,
  })
  async withProgress(_args: object, ctx: Context) {
    ctx.progress(0, 100);
    await sleep(50);
    ctx.progress(50, 100);
    await sleep(50);
    ctx.progress(100, 100);
    return 'Progress test completed';
  }

  @Tool({
    name: 'test_sampling',
    description: "Asks the client's model to answer",
    input: SamplingInput,
  })
  async sampling({ prompt }: z.infer<typeof SamplingInput>, ctx: Context) {
    const messages = [{ role: 'user', content: { type: 'text', text: prompt } }];
    const result = await ctx.sample({ messages, maxTokens: 100 });
    return `LLM response: ${sampledText(result) ?? 'No response'}`;
  }

  @Tool({
    name: 'test_elicitation',
    description: 'Asks for a username and email',
    input: ElicitationInput,
  })
  async elicitation({ message }: z.infer<typeof ElicitationInput>, ctx: Context) {
    const { action, content } = await ctx.elicit(message, Contact);
    return `User response: action=${action}, content=${JSON.stringify(content ?? {})}`;
  }

  @Tool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with a default for every primitive type',
    input: NO_ARGUMENTS,
  })
  async elicitationDefaults(_args: object, ctx: Context) {
    const message = 'Please review and update the form fields with defaults';
    const { action, content } = await ctx.elicit(message, WITH_DEFAULTS);
    return `Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`;
  }

  @Tool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with every enum schema form',
    input: NO_ARGUMENTS,
  })
  async elicitationEnums(_args: object, ctx: Context) {
    const { action, content } = await ctx.elicit(
      'Please select options from the enum fields',
      ENUMS,
    );
    return `Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`;
  }

  // The framework gives handlers no way to cut their own response stream, so this tool cannot
  // force a reconnection; its log message still turns the response into an SSE stream, which
  // shows the priming event and `retry:` that make one possible.
  @Tool({
    name: 'test_reconnection',
    description: 'Answers over an SSE stream that carries a priming event (SEP-1699)',
    input: NO_ARGUMENTS,
  })
  async reconnection(_args: object, ctx: Context) {
    ctx.log.info('Reconnection test started');
    await sleep(100);
    return 'Reconnection test completed successfully.';
  }
}
