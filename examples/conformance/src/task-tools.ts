import { Tool, UserError, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { NO_ARGUMENTS, sleep } from './fixtures.js';

// The tasks extension (io.modelcontextprotocol/tasks) fixtures. A tool declared `optional` or
// `required` runs as a task whenever the request declares the extension; its body is the same
// method either way, and an `await ctx.elicit()` inside a task parks it in `input_required`.

const GreetInput = z.object({ name: z.string() });
const ComputeInput = z.object({
  seconds: z.number().min(0).max(600).describe('How long the computation takes'),
  label: z.string().optional().describe('A name for this run, echoed in the result'),
});
const DeleteInput = z.object({ filename: z.string() });
const Confirm = z.object({ confirm: z.boolean() });
const NameAndConfirm = z.object({ name: z.string().optional(), confirm: z.boolean().optional() });
const Name = z.object({ name: z.string() });

/** Resolves after `ms`, or rejects when `signal` aborts first (a cancelled task stops waiting). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Tools that run as tasks, and the one sync tool the task scenarios compare them with. */
export class TaskTools {
  @Tool({ name: 'greet', description: 'Greets someone (never a task)', input: GreetInput })
  greet({ name }: z.infer<typeof GreetInput>) {
    return `Hello, ${name}!`;
  }

  @Tool({
    name: 'slow_compute',
    description: 'Sleeps `seconds` seconds, then answers (a task when the client supports them)',
    input: ComputeInput,
    task: { mode: 'optional', pollIntervalMs: 200 },
  })
  async slowCompute({ seconds, label }: z.infer<typeof ComputeInput>, ctx: Context) {
    await wait(seconds * 1000, ctx.signal);
    return `Computed ${label ?? 'result'} after ${seconds}s`;
  }

  @Tool({
    name: 'failing_job',
    description: 'Runs for about a second, then fails with a tool error (always a task)',
    input: NO_ARGUMENTS,
    task: { mode: 'required', pollIntervalMs: 200 },
  })
  async failingJob(_args: object, ctx: Context) {
    await wait(1000, ctx.signal);
    throw new UserError('The job failed: the input data was rejected');
  }

  @Tool({
    name: 'protocol_error_job',
    description: 'Returns output its own schema rejects: a server bug, so a protocol error',
    input: NO_ARGUMENTS,
    output: z.object({ count: z.number() }),
    task: { mode: 'optional', pollIntervalMs: 200 },
  })
  async protocolErrorJob() {
    await sleep(100);
    return { structuredContent: { count: 'not a number' } } as never;
  }

  @Tool({
    name: 'confirm_delete',
    description: 'Asks the user to confirm, then deletes the file (pretend)',
    input: DeleteInput,
    task: { mode: 'optional', pollIntervalMs: 200 },
  })
  async confirmDelete({ filename }: z.infer<typeof DeleteInput>, ctx: Context) {
    const answer = await ctx.elicit(`Delete ${filename}?`, Confirm);
    return answer.action === 'accept' && answer.content.confirm
      ? `Deleted ${filename}`
      : `Kept ${filename}`;
  }

  @Tool({
    name: 'multi_input',
    description: 'Asks two questions at once, then answers with both',
    input: NO_ARGUMENTS,
    task: { mode: 'optional', pollIntervalMs: 200 },
  })
  async multiInput(_args: object, ctx: Context) {
    const [first, second] = await Promise.all([
      ctx.elicit('First: your name?', NameAndConfirm),
      ctx.elicit('Second: confirm?', NameAndConfirm),
    ]);
    return `Got ${first.action} and ${second.action}`;
  }

  @Tool({
    name: 'test_tool_with_task',
    description: 'Asks for the user name in its request, then greets them from a task',
    input: NO_ARGUMENTS,
    task: { mode: 'required', pollIntervalMs: 200, deferred: true },
  })
  async withTask(_args: object, ctx: Context) {
    // An input round of the request: no task exists yet.
    const answer = await ctx.elicit('What is your name?', Name, { key: 'user_name' });
    // The request is answered with the task; the rest runs detached.
    await ctx.runAsTask();
    await wait(300, ctx.signal);
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'No name given.';
  }
}
