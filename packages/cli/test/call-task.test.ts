import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from './support/cli-process.ts';
import { runOnTerminal } from './support/pty.ts';
import { fixtureProject } from './support/temp-project.ts';
import { until } from './support/until.ts';

// `mcp-fw call` follows a tool that runs as a task (2025-11-25) to its end and shows its life on
// stderr: one line per change off a terminal, one redrawn line on it. Ctrl-C cancels the task.
// The fixture's tools never end on a clock: ship waits for its gate file, wait for its cancel.
const jobs = fixtureProject('jobs');
afterAll(() => jobs.remove());

/** The `task <id>: …` lines of a run's stderr, without the id. */
function taskLines(stderr: string): string[] {
  const lines = stderr.split('\n').filter(Boolean);
  const id = /^task (\S+):/.exec(lines[0] ?? '')?.[1];
  expect(id).toBeDefined();
  for (const line of lines) expect(line.startsWith(`task ${id}: `)).toBe(true);
  return lines.map((line) => line.slice(`task ${id}: `.length));
}

/**
 * The status words of the lines that are not progress, each once in a row: progress inside a
 * task also becomes its statusMessage, which a poll may or may not catch between two changes.
 */
function statuses(lines: string[]): string[] {
  const words = lines.filter((l) => !l.startsWith('progress ')).map((l) => l.split(' — ')[0]);
  return words.filter((word, i) => word !== words[i - 1]);
}

describe('mcp-fw call following a task', () => {
  it('prints each status and progress off a terminal, and only the result on stdout', async () => {
    const gate = jobs.path('ship.gate');
    const run = spawnCli(
      ['call', 'ship', 'version=1.2', `gate=${gate}`, '--answers', '{"confirm": true}'],
      jobs.dir,
    );
    // The tool waits at its gate until the display showed it working again after the question.
    await until(
      () => /: input_required\n(.*\n)*task \S+: working( — .*)?\n/.test(run.stderr()),
      'resumed',
    );
    jobs.write('ship.gate', '');
    const { code, stdout, stderr } = await run.exited;
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Shipped 1.2.\n' });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: none may reach a pipe
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    const lines = taskLines(stderr);
    expect(statuses(lines)).toEqual(['working', 'input_required', 'working', 'completed']);
    // What a poll caught of the task's statusMessage is what the tool reported, in order.
    const messages = lines.filter((l) => l.startsWith('working — ')).map((l) => l.slice(10));
    expect(['built', 'approved', 'uploaded'].filter((m) => messages.includes(m))).toEqual(messages);
    expect(lines.filter((line) => line.startsWith('progress '))).toEqual([
      'progress 1/3 built',
      'progress 2/3 approved',
      'progress 3/3 uploaded',
    ]);
  });

  it('cancels the task on SIGINT (the tool sees its signal abort) and exits 130', async () => {
    const record = jobs.path('wait.record');
    const run = spawnCli(['call', 'wait', `record=${record}`], jobs.dir);
    await until(() => run.stderr().includes(': progress 1 waiting\n'), 'the task runs');
    run.child.kill('SIGINT');
    const { code, stdout, stderr } = await run.exited;
    expect({ code, stdout }).toEqual({ code: 130, stdout: '' });
    // A poll may have caught the progress as the task's statusMessage too.
    expect(taskLines(stderr).filter((line) => line !== 'working — waiting')).toEqual([
      'working',
      'progress 1 waiting',
      'Ctrl-C: cancelling the task (press Ctrl-C again to quit at once)',
      'cancelled — Cancelled by the client.',
    ]);
    expect(readFileSync(record, 'utf8')).toBe('aborted: Error: the task was cancelled');
  });

  it('redraws one line on a terminal, and Ctrl-C there cancels the task', async () => {
    const { code, output } = await runOnTerminal(
      ['call', 'wait', `record=${jobs.path('tty.record')}`],
      jobs.dir,
      [['1 waiting', '\u0003']],
    );
    // Drawn over the same line (carriage return, erase line), not printed line by line; the
    // terminal echoes the typed Ctrl-C as "^C" wherever the cursor stands.
    const drawn = output.replaceAll('^C', '').split('\r\u001b[2K');
    expect(drawn.some((line) => /^task \S+: working( — waiting)? {2}1 waiting$/.test(line))).toBe(
      true,
    );
    expect(output).toContain('cancelled — Cancelled by the client.\r\n');
    expect(code).toBe(130);
    expect(readFileSync(jobs.path('tty.record'), 'utf8')).toBe(
      'aborted: Error: the task was cancelled',
    );
  });
});
