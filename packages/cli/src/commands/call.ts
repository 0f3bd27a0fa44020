import { existsSync } from 'node:fs';
import { JsonRpcCode, JsonRpcError } from '@mcp-fw/core/transport';
import type { Command } from 'commander';
import { ElicitationAnswers, givenAnswers, unansweredError } from '../client/elicitation.js';
import { connectInProcess } from '../client/in-process.js';
import { fetchLists } from '../client/lists.js';
import { remoteTarget } from '../client/remote.js';
import type { CallResult } from '../client/wire.js';
import { askForm } from '../output/ask-form.js';
import { formatCallResult } from '../output/call-result.js';
import { CliError } from '../output/cli-error.js';
import { ProgressBar } from '../output/progress-bar.js';
import { runToExit } from '../output/report-error.js';
import { takeStdout } from '../output/stdout.js';
import { styleFor } from '../output/style.js';
import { TaskDisplay } from '../output/task-display.js';
import { loadEntry } from '../project/load-entry.js';
import { callArguments } from './call-arguments.js';
import { callRemote } from './call-remote.js';
import { TaskFollower } from './follow-task.js';
import { examples } from './options.js';

interface CallOptions {
  json?: string;
  raw?: boolean;
  answers?: string;
  answersFile?: string;
  header?: string[];
}

/** `mcp-fw call [entry] <tool> [key=value…]`: runs one tool in process. */
export function callCommand(program: Command): void {
  program
    .command('call')
    .description(
      'Run one tool and print its result: in process from a source file, or on a running server by URL or command',
    )
    .argument(
      '[entry]',
      'the module that exports your server (default: src/server.ts of the project here), an http(s) URL, or a command line in quotes',
    )
    .argument('[tool]', 'the tool to call (required)')
    .argument('[arguments...]', 'arguments as name=value (values read as the tool’s schema types)')
    .usage('[entry] <tool> [arguments...] [options]')
    .option('--json <object>', 'arguments as one JSON object (name=value pairs override its keys)')
    .option(
      '--answers <json>',
      'answers to the tool’s questions (elicitation): an object, or a list in order',
    )
    .option('--answers-file <file>', 'the same answers, read from a JSON file')
    .option('--raw', 'print the whole result as JSON')
    .option(
      '--header <name:value>',
      'an HTTP header for a URL target (repeat for more), e.g. "Authorization: Bearer <token>"',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      examples([
        ['mcp-fw call add a=1 b=2', 'the project here (src/server.ts), arguments by name'],
        ['mcp-fw call src/server.ts add a=1 b=2', 'an entry of your choice'],
        [`mcp-fw call search --json '{"query":"x","tags":["a"]}'`, 'arguments as JSON'],
        [
          `mcp-fw call reserve ids='["a"]' --answers '{"confirm":true}'`,
          'answer the tool’s questions up front',
        ],
        ['mcp-fw call dist/server.js add a=1 b=2 --raw', 'the result as JSON'],
        [
          'mcp-fw call https://example.com/mcp add a=1 --header "Authorization: Bearer $T"',
          'a running server',
        ],
        [
          'mcp-fw call "npx -y @modelcontextprotocol/server-everything" echo message=hi',
          'a server started over stdio',
        ],
      ]) +
        '\nProgress is drawn on a terminal. A tool that asks questions (elicitation) is answered from\n' +
        '--answers or --answers-file, else asked on the terminal. A tool that runs as a task is called as\n' +
        'one and followed to its end, its status and progress shown on stderr (one line per change when\n' +
        'stderr is not a terminal); Ctrl-C cancels the task (exit status 130). A result with isError exits\n' +
        'with status 1.\n',
    )
    .action(
      (
        first: string | undefined,
        second: string | undefined,
        rest: string[],
        options: CallOptions,
      ) =>
        runToExit(async () => {
          const { entry, tool, pairs } = callTarget(first, second, rest);
          const remote = remoteTarget(entry);
          if (remote)
            return callRemote(remote, {
              tool,
              pairs,
              json: options.json,
              raw: options.raw,
              headers: options.header,
              given: givenAnswers(options.answers, options.answersFile),
            });
          if (options.header?.length)
            throw new CliError(
              '--header applies to a server reached by URL.',
              'Drop --header, or name the server by its URL: mcp-fw call https://host/mcp <tool>.',
              2,
            );
          const out = takeStdout();
          const style = styleFor(process.stderr);
          const bar = new ProgressBar(process.stderr);
          const given = givenAnswers(options.answers, options.answersFile);
          const onTerminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
          // Set once the tool turns out to run as a task: its life is shown while it is followed.
          let display: TaskDisplay | undefined;
          let follower: TaskFollower | undefined;
          const answers = new ElicitationAnswers(
            given,
            onTerminal
              ? (form) => {
                  const ask = () => askForm(form, process.stdin, process.stderr, style);
                  if (display) return display.hold(ask);
                  bar.clear();
                  return ask();
                }
              : undefined,
          );
          const server = await loadEntry(entry, 'call');
          const client = await connectInProcess(
            server,
            {
              notification: (method, params) => {
                if (method === 'notifications/progress') {
                  const progress = {
                    progress: Number(params?.progress),
                    total: params?.total as number | undefined,
                    message: params?.message as string | undefined,
                  };
                  if (display) display.progress(progress);
                  else bar.update(progress.progress, progress.total, progress.message);
                }
                if (method === 'notifications/tasks/status') follower?.statusNotification(params);
                if (method === 'notifications/message') {
                  bar.clear();
                  const data =
                    typeof params?.data === 'string' ? params.data : JSON.stringify(params?.data);
                  process.stderr.write(`${style.dim(`[${params?.level}] ${data}`)}\n`);
                  display?.redraw();
                }
              },
              request: async (method, params) => {
                if (method === 'elicitation/create') {
                  await follower?.question(params);
                  return answers.answer(params);
                }
                throw new JsonRpcError(
                  JsonRpcCode.MethodNotFound,
                  `mcp-fw call does not answer ${method}`,
                );
              },
            },
            { elicitation: { form: {} } },
          );
          const tools = (await fetchLists(client.peer)).tools;
          const definition = tools.find((t) => t.name === tool);
          if (!definition) {
            throw new CliError(
              `The server has no tool named ${tool}.`,
              tools.length
                ? `Call one of: ${tools.map((t) => t.name).join(', ')}.`
                : 'It has no tools at all; check its providers.',
            );
          }
          const args = callArguments(pairs, options.json, definition.inputSchema ?? {});
          // A tool that runs as a task is called as one and followed to its end: its questions
          // and progress arrive meanwhile, as for an immediate call, and its status is shown.
          const taskSupport = definition.execution?.taskSupport;
          const asTask = taskSupport === 'optional' || taskSupport === 'required';
          if (asTask) {
            display = new TaskDisplay(process.stderr, style, bar);
            follower = new TaskFollower(client.peer, display);
          }
          let result: CallResult;
          try {
            result = (await client.peer.request('tools/call', {
              name: tool,
              arguments: args,
              ...(asTask ? { task: {} } : {}),
              ...(bar.enabled || asTask ? { _meta: { progressToken: 1 } } : {}),
            })) as CallResult;
            if (follower && result.task?.taskId) {
              const outcome = await follower.follow(result.task);
              if ('interrupted' in outcome) {
                await client.close();
                return 130;
              }
              result = outcome.result;
            } else display = undefined;
          } catch (error) {
            if (error instanceof JsonRpcError)
              throw new CliError(
                `${tool} failed: ${error.message}.`,
                'Check the arguments against mcp-fw inspect, then try again.',
              );
            throw error;
          } finally {
            follower?.stop();
            bar.clear();
          }
          if (options.raw) out(`${JSON.stringify(result, null, 2)}\n`);
          else if (result.isError) process.stderr.write(style.red(formatCallResult(result)));
          else out(formatCallResult(result));
          await client.close();
          if (answers.unanswered.length > 0) throw unansweredError(tool, answers.unanswered);
          return result.isError ? 1 : 0;
        }),
    );
}

/**
 * The entry, tool and arguments of `mcp-fw call [entry] <tool> [arguments...]`: the first word
 * is the entry only when a tool name follows it and it names a file or directory (or looks like
 * a module path); otherwise it is the tool, of the project in the current directory.
 */
export function callTarget(
  first: string | undefined,
  second: string | undefined,
  rest: readonly string[],
): { entry: string | undefined; tool: string; pairs: string[] } {
  if (first === undefined)
    throw new CliError(
      'No tool was named.',
      'Name the tool to call: mcp-fw call [entry] <tool> name=value (mcp-fw inspect lists the tools).',
      2,
    );
  const isPair = (word: string) => word.includes('=');
  const isModulePath =
    /\.[cm]?[jt]sx?$/.test(first) || first.includes('/') || remoteTarget(first) !== undefined;
  if (second !== undefined && !isPair(second) && (isModulePath || existsSync(first)))
    return { entry: first, tool: second, pairs: [...rest] };
  if (isModulePath && !isPair(first)) {
    throw new CliError(
      `No tool was named after the entry ${first}.`,
      `Name the tool to call: mcp-fw call ${first} <tool> name=value (mcp-fw inspect lists the tools).`,
      2,
    );
  }
  if (isPair(first))
    throw new CliError(
      `"${first}" is an argument, but no tool was named.`,
      'Name the tool first: mcp-fw call [entry] <tool> name=value.',
    );
  return {
    entry: undefined,
    tool: first,
    pairs: second === undefined ? [...rest] : [second, ...rest],
  };
}
