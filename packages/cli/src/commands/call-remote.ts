import type { TaskState } from '@mcp-fw/client';
import { JsonRpcError } from '@mcp-fw/core/transport';
import { ElicitationAnswers, unansweredError } from '../client/elicitation.js';
import { connectRemote, describeTarget, type RemoteTarget } from '../client/remote.js';
import type { CallResult } from '../client/wire.js';
import { askForm } from '../output/ask-form.js';
import { formatCallResult } from '../output/call-result.js';
import { CliError } from '../output/cli-error.js';
import { ProgressBar } from '../output/progress-bar.js';
import { takeStdout } from '../output/stdout.js';
import { styleFor } from '../output/style.js';
import { TaskDisplay } from '../output/task-display.js';
import { callArguments } from './call-arguments.js';

/** What `mcp-fw call <url|command> <tool>` takes besides the target. */
export interface RemoteCall {
  readonly tool: string;
  readonly pairs: readonly string[];
  readonly json?: string;
  readonly raw?: boolean;
  readonly headers?: readonly string[];
  readonly given?: Record<string, unknown>[];
}

/**
 * `mcp-fw call` against a running server (a URL, or a command started over stdio) through
 * @mcp-fw/client, in whichever era the server speaks: the arguments read against the tool's
 * listed schema, progress and a task's status on stderr, questions answered from --answers or
 * the terminal, Ctrl-C cancelling the call (or its task). Resolves with the exit status.
 */
export async function callRemote(target: RemoteTarget, call: RemoteCall): Promise<number> {
  const out = takeStdout();
  const style = styleFor(process.stderr);
  const bar = new ProgressBar(process.stderr);
  const onTerminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
  let display: TaskDisplay | undefined;
  const answers = new ElicitationAnswers(
    call.given,
    onTerminal
      ? (form) => {
          const ask = () => askForm(form, process.stdin, process.stderr, style);
          if (display) return display.hold(ask);
          bar.clear();
          return ask();
        }
      : undefined,
  );
  const client = await connectRemote(
    target,
    {
      handlers: {
        elicitation: async (request) =>
          (await answers.answer(request as unknown as Record<string, unknown>)) as never,
      },
      onLog: ({ level, data }) => {
        bar.clear();
        process.stderr.write(
          `${style.dim(`[${level}] ${typeof data === 'string' ? data : JSON.stringify(data)}`)}\n`,
        );
        display?.redraw();
      },
      onWarning: (message) => {
        bar.clear();
        process.stderr.write(`${style.dim(`warning: ${message}`)}\n`);
      },
      stdio: { onStderr: () => {} },
    },
    call.headers,
  );
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort(new Error('interrupted (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  try {
    const tools = await client.listTools();
    const definition = tools.find((t) => t.name === call.tool);
    if (!definition)
      throw new CliError(
        `${describeTarget(target)} has no tool named ${call.tool}.`,
        tools.length
          ? `Call one of: ${tools.map((t) => t.name).join(', ')}.`
          : 'It lists no tools at all.',
      );
    const args = callArguments([...call.pairs], call.json, definition.inputSchema ?? {});
    let result: CallResult;
    try {
      result = (await client.callTool(call.tool, args, {
        signal: interrupt.signal,
        timeoutMs: Number.POSITIVE_INFINITY,
        onProgress: ({ progress, total, message }) => {
          if (display) display.progress({ progress, total, message });
          else bar.update(progress, total, message);
        },
        onTask: (task: TaskState) => {
          display ??= new TaskDisplay(process.stderr, style, bar);
          display.status(task);
        },
      })) as unknown as CallResult;
    } catch (error) {
      if (interrupt.signal.aborted) {
        display?.note('Ctrl-C: the call was cancelled');
        return 130;
      }
      if (error instanceof JsonRpcError)
        throw new CliError(
          `${call.tool} failed: ${error.message}.`,
          'Check the arguments against mcp-fw inspect, then try again.',
        );
      throw new CliError(
        `${call.tool} failed: ${(error as Error).message}`,
        'Check that the server is still running, then try again.',
      );
    } finally {
      bar.clear();
    }
    if (call.raw) out(`${JSON.stringify(result, null, 2)}\n`);
    else if (result.isError) process.stderr.write(style.red(formatCallResult(result)));
    else out(formatCallResult(result));
    if (answers.unanswered.length > 0) throw unansweredError(call.tool, answers.unanswered);
    return result.isError ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    await client.close();
  }
}
