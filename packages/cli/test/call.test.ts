import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { exampleProject, fixtureProject, type TempProject } from './support/temp-project.ts';

const calculator = exampleProject('calculator');
const logistics = exampleProject('logistics');
const steps = fixtureProject('steps');
afterAll(() => [calculator, logistics, steps].forEach((p: TempProject) => p.remove()));

describe('mcp-fw call', () => {
  it('runs a tool with name=value arguments read as the schema types', async () => {
    expect(await runCli(['call', 'src/server.ts', 'add', 'a=1', 'b=2'], calculator.dir)).toEqual({
      code: 0,
      stdout: '{"result":3,"expression":"1 + 2"}\n',
      stderr: '',
    });
  });

  it('takes arguments as JSON and prints the whole result with --raw', async () => {
    const run = await runCli(
      ['call', 'src/server.ts', 'divide', '--json', '{"a": 6, "b": 3}', '--raw'],
      calculator.dir,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      content: [{ type: 'text', text: '{"result":2,"expression":"6 / 3"}' }],
      structuredContent: { result: 2, expression: '6 / 3' },
    });
  });

  it('runs the logistics example with a string argument', async () => {
    const run = await runCli(
      ['call', 'src/server.ts', 'query_logistics', 'order_id=ORD-1001'],
      logistics.dir,
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'Order ORD-1001 (SwiftShip SS123456789) to Berlin, DE: delivered',
    );
  });

  it('exits with status 1 and the tool error on stderr when the result is an error', async () => {
    expect(await runCli(['call', 'src/server.ts', 'divide', 'a=1', 'b=0'], calculator.dir)).toEqual(
      {
        code: 1,
        stdout: '',
        stderr: 'Cannot divide by zero: choose a non-zero divisor b\n',
      },
    );
  });

  it('names the fix for an unknown tool and for a value of the wrong type', async () => {
    expect(await runCli(['call', 'src/server.ts', 'power', 'a=2'], calculator.dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: The server has no tool named power.\nCall one of: add, subtract, multiply, divide.\n',
    });
    expect(await runCli(['call', 'src/server.ts', 'add', 'a=one', 'b=2'], calculator.dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-fw: a must be a number, not "one".\nPass a number, e.g. a=42.\n',
    });
  });

  it('draws a progress bar on a terminal only; log messages go to stderr', async () => {
    const plain = await runCli(['call', 'src/server.ts', 'count', 'n=2'], steps.dir);
    expect(plain).toEqual({
      code: 0,
      stdout: 'counted to 2\n',
      stderr: '[info] step 1 of 2\n[info] step 2 of 2\n',
    });
    // `script` gives the command a terminal (util-linux); NO_COLOR keeps the bytes simple.
    const tty = execFileSync(
      'script',
      ['-qc', `${process.execPath} ${BIN} call src/server.ts count n=2`, '/dev/null'],
      {
        cwd: steps.dir,
        env: { ...process.env, NO_COLOR: '1', COLUMNS: '80' },
      },
    ).toString();
    expect(tty).toBe(
      '\r\x1b[2K[############------------] 50% step 1\r\x1b[2K[info] step 1 of 2\r\n' +
        '\r\x1b[2K[########################] 100% step 2\r\x1b[2K[info] step 2 of 2\r\n' +
        'counted to 2\r\n',
    );
  });
});
