import { afterAll, expect, it } from 'vitest';
import { fixtureForTest, stopAll } from './support/stdio-process.ts';

afterAll(stopAll);

it('keeps stdout to protocol frames when code writes to stdout; the noise goes to stderr', async (test) => {
  // The fixture logs STARTUP-NOISE before serveStdio runs; the tool `noisy` uses console.log,
  // console.info, console.warn and process.stdout.write.
  const server = fixtureForTest(test);
  await server.initialize();
  expect((await server.callTool('noisy')).result).toEqual({
    content: [{ type: 'text', text: 'ok' }],
  });
  // The answer to a request sent after the noise: everything written before it is in by now.
  expect((await server.request('ping')).result).toEqual({});
  expect(server.problems).toEqual([]);
  expect(server.lines.filter((l) => /NOISE|RAW/.test(l))).toEqual([]);
  expect(server.lines).toHaveLength(3);
  for (const noise of ['STARTUP-NOISE', 'NOISE', 'INFO-NOISE', 'WARN-NOISE', 'RAW']) {
    await server.stderrContains(`${noise}\n`);
  }
  server.closeStdin();
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.problems).toEqual([]);
});
