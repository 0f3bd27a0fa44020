// Issue #16 over a real stdio process: the startup warning and the error lines go to stderr
// (stdout carries only protocol frames, checked by StdioProcess), the client gets the precise
// isError result, or with masking only a ref that stderr repeats with the real message.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { StdioProcess, stopAll } from './support/stdio-process.ts';
import { REPO_ROOT } from './support/paths.ts';

afterAll(stopAll);

const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/errors/stdio-errors-server.ts');

function start(mask: boolean): StdioProcess {
  const entry = nodeEntry(FIXTURE);
  const env = { ...entry.env, MCP_FW_MASK: mask ? '1' : '0' };
  return new StdioProcess(process.execPath, entry.args, { env });
}

describe.concurrent('issue #16 over stdio', () => {
  it('warns about the undescribed tool and names the tool whose result cannot be serialised', async () => {
    const server = start(false);
    await server.initialize();
    expect(server.stderr).toContain(
      '[mcp-fw] warning: tool "bare" (ErrorTools.bare) has no description, so the model must guess from its name what it does.',
    );
    const message =
      'Tool "big" returned a result that cannot be sent as JSON: a BigInt at $.files[0].bytes. ' +
      'Fix: convert BigInt values to a string (String(n)) or a number (Number(n)) before returning them.';
    expect((await server.callTool('big')).result).toEqual({
      content: [{ type: 'text', text: message }],
      isError: true,
    });
    await server.stderrContains(`[mcp-fw] ${message}\n`);
    expect(server.problems).toEqual([]);
    // Only frames on stdout: every line is a JSON-RPC message (checked as it arrived).
    expect(server.lines.every((line) => line.startsWith('{"jsonrpc":"2.0"'))).toBe(true);
    server.kill('SIGKILL');
  });

  it('with masking, the client gets a ref and stderr has the ref with the real message', async () => {
    const server = start(true);
    await server.initialize();
    const result = (await server.callTool('leak')).result;
    expect(result.isError).toBe(true);
    const ref = /^Internal error \(ref ([0-9a-f]{12})\); the server's log has the details$/.exec(
      result.content[0].text,
    )?.[1];
    expect(ref).toBeDefined();
    await server.stderrContains(
      `[mcp-fw] tool leak threw (ref ${ref})\nError: login failed: password=hunter2\n`,
    );
    expect(server.lines.join('\n')).not.toContain('hunter2');
    expect(server.problems).toEqual([]);
    server.kill('SIGKILL');
  });
});
