import { Prompt, Tool, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { NO_ARGUMENTS, sampledText } from './fixtures.js';

// The 2026-07-28 input-round (MRTR) fixtures. Each `await` below is one question: under
// 2026-07-28 it becomes an `inputRequests` entry under its key; in the legacy era, a real
// request to the client. Questions awaited together share a round.

const Name = z.object({ name: z.string() });
const Confirmation = z.object({ ok: z.boolean() });
const Color = z.object({ color: z.string() });
const PromptContext = z.object({ context: z.string() });

const capitalQuestion = {
  messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
  maxTokens: 100,
};
const greetingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
  maxTokens: 50,
};

/** Tools that ask the client for input before they answer. */
export class InputRoundTools {
  @Tool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks for the user name (elicitation), then greets the user',
    input: NO_ARGUMENTS,
  })
  async elicitation(_args: object, ctx: Context) {
    // ignore-extra-params answers this question with the call itself, before it is asked (no
    // requestState): a name may be taken so (acceptUnasked); a confirmation never would be.
    const answer = await ctx.elicit('What is your name?', Name, {
      key: 'user_name',
      acceptUnasked: true,
    });
    return answer.action === 'accept'
      ? `Hello, ${answer.content.name}!`
      : `No name given (${answer.action}).`;
  }

  @Tool({
    name: 'test_input_required_result_sampling',
    description: "Asks the client's model for the capital of France",
    input: NO_ARGUMENTS,
  })
  async sampling(_args: object, ctx: Context) {
    const result = await ctx.sample(capitalQuestion, { key: 'capital_question' });
    return `The model answered: ${sampledText(result) ?? '(no text)'}`;
  }

  @Tool({
    name: 'test_input_required_result_list_roots',
    description: "Asks for the client's roots and lists them",
    input: NO_ARGUMENTS,
  })
  async listRoots(_args: object, ctx: Context) {
    const roots = await ctx.roots({ key: 'client_roots' });
    return `Client roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`;
  }

  @Tool({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation; the answer comes back with the signed request state',
    input: NO_ARGUMENTS,
  })
  async requestState(_args: object, ctx: Context) {
    // The framework checks the echoed requestState's signature before this handler resumes.
    const answer = await ctx.elicit('Please confirm', Confirmation, { key: 'confirm' });
    return `state-ok: confirmed=${answer.action === 'accept' && answer.content.ok}`;
  }

  @Tool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for a name, a sampled greeting and the roots in one round',
    input: NO_ARGUMENTS,
  })
  async multipleInputs(_args: object, ctx: Context) {
    const [answer, greeting, roots] = await Promise.all([
      ctx.elicit('What is your name?', Name, { key: 'user_name' }),
      ctx.sample(greetingRequest, { key: 'greeting' }),
      ctx.roots({ key: 'client_roots' }),
    ]);
    const name = answer.action === 'accept' ? answer.content.name : '(no name)';
    return `Name: ${name}; greeting: ${sampledText(greeting) ?? '(no text)'}; roots: ${roots.map((root) => root.uri).join(', ')}`;
  }

  @Tool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks for a name, then, in a second round, for a favorite color',
    input: NO_ARGUMENTS,
  })
  async multiRound(_args: object, ctx: Context) {
    const step1 = await ctx.elicit('Step 1: What is your name?', Name, { key: 'step1' });
    const step2 = await ctx.elicit('Step 2: What is your favorite color?', Color, { key: 'step2' });
    const name = step1.action === 'accept' ? step1.content.name : '(no name)';
    const color = step2.action === 'accept' ? step2.content.color : '(no color)';
    return `${name}'s favorite color is ${color}.`;
  }

  @Tool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a retry whose request state was altered is refused',
    input: NO_ARGUMENTS,
  })
  async tamperedState(_args: object, ctx: Context) {
    const answer = await ctx.elicit('Please confirm', Confirmation, { key: 'confirm' });
    return `Confirmed: ${answer.action === 'accept' && answer.content.ok}`;
  }

  @Tool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks for a name the way the client can answer: elicitation, else its model',
    input: NO_ARGUMENTS,
  })
  async capabilities(_args: object, ctx: Context) {
    // Capabilities are declared per request under 2026-07-28: ask only what this client can answer.
    const { elicitation, sampling } = ctx.client.capabilities;
    if (elicitation) {
      // ignore-extra-params answers this question with the call itself, before it is asked (no
      // requestState): a name may be taken so (acceptUnasked); a confirmation never would be.
      const answer = await ctx.elicit('What is your name?', Name, {
        key: 'user_name',
        acceptUnasked: true,
      });
      return answer.action === 'accept'
        ? `Hello, ${answer.content.name}!`
        : `No name given (${answer.action}).`;
    }
    if (sampling)
      return `Hello, ${sampledText(await ctx.sample(greetingRequest, { key: 'greeting' })) ?? '(no text)'}`;
    return 'The client can answer no questions (neither elicitation nor sampling declared).';
  }
}

/** A prompt that asks for input before it renders (input rounds are not only for tools). */
export class InputRoundPrompts {
  @Prompt({
    name: 'test_input_required_result_prompt',
    description: 'Asks the user which context to use, then renders',
    input: NO_ARGUMENTS,
  })
  async inputRequired(_args: object, ctx: Context) {
    const answer = await ctx.elicit('What context should the prompt use?', PromptContext, {
      key: 'user_context',
    });
    const context = answer.action === 'accept' ? answer.content.context : '(none)';
    return `Answer using this context: ${context}`;
  }
}
