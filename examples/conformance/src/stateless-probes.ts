import { Tool, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { NO_ARGUMENTS, sampledText } from './fixtures.js';

const Name = z.object({ name: z.string() });

/** The diagnostic tools the 2026-07-28 `server-stateless` scenario probes with. */
export class StatelessProbes {
  @Tool({
    name: 'test_missing_capability',
    description: "Needs the client's sampling capability; without it the call is refused (-32021)",
    input: NO_ARGUMENTS,
  })
  async missingCapability(_args: object, ctx: Context) {
    // Asking first thing: a client without `sampling` is refused before anything has run.
    const result = await ctx.sample('Say hello', { key: 'hello' });
    return `The model said: ${sampledText(result) ?? '(no text)'}`;
  }

  @Tool({
    name: 'test_logging_tool',
    description: 'Logs at info level; the log reaches only requests that set a log level',
    input: NO_ARGUMENTS,
  })
  logging(_args: object, ctx: Context) {
    ctx.log.info('test_logging_tool was called');
    return 'Logged one info message.';
  }

  @Tool({
    name: 'test_streaming_elicitation',
    description:
      'Asks for a name; under 2026-07-28 the question is a result, never a request on the stream',
    input: NO_ARGUMENTS,
  })
  async streamingElicitation(_args: object, ctx: Context) {
    const answer = await ctx.elicit('What is your name?', Name, { key: 'user_name' });
    return answer.action === 'accept'
      ? `Hello, ${answer.content.name}!`
      : `No name given (${answer.action}).`;
  }
}
