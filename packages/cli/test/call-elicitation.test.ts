import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.ts';
import { runOnTerminal } from './support/pty.ts';
import { fixtureProject, templateProject } from './support/temp-project.ts';

// `mcp-fw call` declares elicitation: a tool that asks (ctx.elicit) is answered from --answers
// or --answers-file, else on the terminal; with neither, the question is cancelled and the
// command says how to answer it.
const asking = fixtureProject('asking');
const full = templateProject('full');
afterAll(() => [asking, full].forEach((project) => project.remove()));

describe('mcp-fw call with a tool that asks questions', () => {
  it('takes the answers from --answers, one object for every question', async () => {
    expect(
      await runCli(
        ['call', 'book', 'room=12', '--answers', '{"confirm": true, "nights": 2, "board": "half"}'],
        asking.dir,
      ),
    ).toEqual({
      code: 0,
      stdout: 'Booked room 12 for 2 night(s), board: half.\n',
      stderr: '',
    });
  });

  it('runs the full template’s showcase tool, reserve_books, in its project', async () => {
    expect(
      await runCli(
        ['call', 'reserve_books', 'ids=["dune"]', '--answers', '{"confirm": true, "weeks": 2}'],
        full.dir,
      ),
    ).toEqual({
      code: 0,
      stdout: 'Reserved for 2 week(s): Dune.\n',
      stderr: '',
    });
  });

  it('takes a list from --answers-file, answering the questions in order', async () => {
    asking.write('answers.json', JSON.stringify([{ name: 'Ada' }, { nights: 3 }]));
    expect(
      await runCli(
        ['call', 'src/server.ts', 'register', 'hotel=Ritz', '--answers-file', 'answers.json'],
        asking.dir,
      ),
    ).toEqual({
      code: 0,
      stdout: 'Ada, 3 night(s) at Ritz.\n',
      stderr: '',
    });
  });

  it('follows a tool that runs as a task to its end, answering its question', async () => {
    const { code, stdout, stderr } = await runCli(
      ['call', 'checkout', 'room=12', '--answers', '{"confirm": true}'],
      asking.dir,
    );
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Checked out of room 12.\n' });
    // Its life on stderr: asked, then done (a poll may catch it working again in between).
    expect(stderr).toMatch(
      /^task (\S+): working\ntask \1: input_required\n(task \1: working\n)?task \1: completed\n$/,
    );
  });

  it('without answers and without a terminal, cancels and says how to answer', async () => {
    expect(await runCli(['call', 'book', 'room=12'], asking.dir)).toEqual({
      code: 1,
      stdout: 'Not booked (cancel).\n',
      stderr:
        'mcp-fw: book asked for input ("Book room 12?" (confirm, nights, board)), but stdin is not a terminal, so nobody could answer and the question was cancelled.\n' +
        `Pass the answers with --answers '{"confirm":true,"nights":1,"board":"none"}' (or --answers-file <file.json>; a list answers several questions in order), or run the command in a terminal to be asked.\n`,
    });
  });

  it('names the fix for answers that are not JSON objects', async () => {
    expect(await runCli(['call', 'book', 'room=12', '--answers', 'yes'], asking.dir)).toMatchObject(
      {
        code: 1,
        stderr: expect.stringMatching(
          /^mcp-fw: --answers is not valid JSON: .*\nGive an object, e.g. --answers '\{"confirm": true\}'.\n$/,
        ),
      },
    );
    expect(await runCli(['call', 'book', 'room=12', '--answers', '[1]'], asking.dir)).toMatchObject(
      {
        code: 1,
        stderr: `mcp-fw: --answers must be a JSON object, or a list of objects (one per question).\nGive an object, e.g. --answers '{"confirm": true}'.\n`,
      },
    );
  });

  it('asks on a terminal, field by field, from the requested schema', async () => {
    const { code, output } = await runOnTerminal(['call', 'book', 'room=7'], asking.dir, [
      ['confirm — Book it? [y/n]: ', 'y\r'],
      ['nights — How many nights [integer, 1-7]: ', '9\r'],
      ['enter a number from 1 to 7', ''],
      ['nights — How many nights [integer, 1-7]: ', '3\r'],
      ['board — Meals [none/breakfast/half, default none]: ', '\r'],
    ]);
    expect(output).toContain('Book room 7?\r\n');
    expect(output).toContain('Booked room 7 for 3 night(s), board: none.\r\n');
    expect(code).toBe(0);
  });

  it('cancels the question on Ctrl+D at a terminal', async () => {
    const { code, output } = await runOnTerminal(['call', 'book', 'room=7'], asking.dir, [
      ['confirm — Book it? [y/n]: ', '\u0004'],
    ]);
    expect(output).toContain('Not booked (cancel).\r\n');
    expect(code).toBe(0);
  });
});
