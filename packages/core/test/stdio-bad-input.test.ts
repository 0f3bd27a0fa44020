import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fixtureForTest,
  startFixture,
  stopAll,
  type StdioProcess,
} from './support/stdio-process.ts';

// One server for the whole file: after each bad input the same process must keep serving.
let server: StdioProcess;
// How many `"id": null` errors the current test expects (see StdioProcess.nullIdErrors).
let nullIds = 0;

beforeAll(async () => {
  server = startFixture();
  await server.initialize('2025-11-25');
});
afterEach(() => {
  expect(server.problems.splice(0)).toEqual([]);
  expect(server.nullIdErrors.splice(0)).toHaveLength(nullIds);
  nullIds = 0;
});
afterAll(stopAll);

const FIVE = { content: [{ type: 'text', text: '5' }] };

/** A valid call right after a bad input: the server is still up and still answering. */
async function expectStillServing(p: StdioProcess): Promise<void> {
  expect((await p.callTool('add', { a: 2, b: 3 })).result).toEqual(FIVE);
}

function error(id: string | number | null, code: number, message: unknown) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function parseError(detail: RegExp) {
  return error(null, -32700, expect.stringMatching(new RegExp(`^Parse error: .*${detail.source}`)));
}

const invalid = (id: string | number | null, why: string) =>
  error(id, -32600, `Invalid Request: ${why}`);
const NOT_OBJECT = 'a JSON-RPC message must be an object';
const BAD_ID = '"id" must be a string or an integer';
const BAD_VERSION = '"jsonrpc" must be "2.0"';
const NO_BATCH = 'batches are not supported by the negotiated protocol revision';
const NOT_A_MESSAGE = 'expected a request, a notification or a response';
const PING = '"method":"ping"';
const PEER_ERROR = '{"code":-32700,"message":"Parse error"}';

describe('stdio: each malformed line gets one error, and the server keeps serving', () => {
  it.each([
    [
      'a line that is not JSON',
      'this is not json',
      parseError(/"this is not json" is not valid JSON$/),
    ],
    ['truncated JSON', '{"jsonrpc":"2.0","id":1', parseError(/ at position 23\b/)],
    ['a number', '42', invalid(null, NOT_OBJECT)],
    ['a string', '"x"', invalid(null, NOT_OBJECT)],
    ['null', 'null', invalid(null, NOT_OBJECT)],
    ['an empty array (a batch; 2025-11-25 has none)', '[]', invalid(null, NO_BATCH)],
    [
      'a batch holding a valid ping',
      `[{"jsonrpc":"2.0","id":"in-batch",${PING}}]`,
      invalid(null, NO_BATCH),
    ],
    ['a request without "jsonrpc"', `{"id":7,${PING}}`, invalid(7, BAD_VERSION)],
    [
      'a request with "jsonrpc":"1.0"',
      `{"jsonrpc":"1.0","id":"v1",${PING}}`,
      invalid('v1', BAD_VERSION),
    ],
    ['an object id', `{"jsonrpc":"2.0","id":{},${PING}}`, invalid(null, BAD_ID)],
    ['a boolean id', `{"jsonrpc":"2.0","id":true,${PING}}`, invalid(null, BAD_ID)],
    ['a null id', `{"jsonrpc":"2.0","id":null,${PING}}`, invalid(null, BAD_ID)],
    ['a fractional id', `{"jsonrpc":"2.0","id":1.5,${PING}}`, invalid(null, BAD_ID)],
    [
      'string params',
      `{"jsonrpc":"2.0","id":9,${PING},"params":"x"}`,
      invalid(9, '"params" must be an object'),
    ],
    ['neither request nor response', '{"jsonrpc":"2.0","id":10}', invalid(10, NOT_A_MESSAGE)],
    ['a numeric method', '{"jsonrpc":"2.0","id":11,"method":42}', invalid(11, NOT_A_MESSAGE)],
  ])('%s', async (_name, line, expected) => {
    nullIds = expected.id === null ? 1 : 0;
    server.readAll();
    server.sendLine(line);
    expect(await server.nextLine()).toEqual(expected);
    await expectStillServing(server);
    // Exactly one answer to the bad line, none to anything inside it.
    expect(server.readAll()).toHaveLength(1);
    expect(server.responsesTo('in-batch')).toEqual([]);
  });

  it.each([
    ['an empty line', ''],
    ['a line of blanks', '   \t'],
    [
      'a notification of an unknown method',
      '{"jsonrpc":"2.0","method":"notifications/unknown","params":{}}',
    ],
    ['a response to an id never sent', '{"jsonrpc":"2.0","id":"never-sent","result":{}}'],
    // The client could not read something we sent: answering could make two peers trade errors
    // forever. The 2025-11-25 schema leaves the id out of such an error.
    ['an error response with id null', `{"jsonrpc":"2.0","id":null,"error":${PEER_ERROR}}`],
    ['an error response without id', `{"jsonrpc":"2.0","error":${PEER_ERROR}}`],
  ])('answers nothing to %s', async (_name, line) => {
    server.readAll();
    server.sendLine(line);
    await expectStillServing(server);
    expect(server.readAll()).toEqual([{ jsonrpc: '2.0', id: expect.any(Number), result: FIVE }]);
  });

  it('answers a 10 MiB line with -32600 naming the limit, unread, and keeps serving', async () => {
    nullIds = 1;
    const text = 'x'.repeat(10 * 1024 * 1024);
    const params = { name: 'echo', arguments: { text } };
    const line = JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: 'tools/call', params });
    const bytes = Buffer.byteLength(line);
    server.readAll();
    server.sendLine(line);
    expect(await server.nextLine()).toEqual(
      invalid(
        null,
        `message of ${bytes} bytes exceeds the limit of 4194304 bytes (maxMessageBytes)`,
      ),
    );
    await expectStillServing(server);
    expect(server.responsesTo('huge')).toEqual([]);
  });
});

describe('stdio: protocol errors name their cause', () => {
  it('answers an unknown method with -32601 echoing the id', async () => {
    const response = await server.request('no/such/method', {});
    expect(response).toEqual(error(response.id, -32601, 'Method not found: no/such/method'));
    expect(typeof response.id).toBe('number');
    await expectStillServing(server);
  });

  it('answers a call to an unknown tool with -32602 naming the tool', async () => {
    const response = await server.callTool('no_such_tool');
    expect(response.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
    await expectStillServing(server);
  });

  it('answers tools/call without a name with -32602', async () => {
    const response = await server.request('tools/call', { arguments: {} });
    expect(response.error).toEqual({
      code: -32602,
      message: 'Invalid params: tools/call needs params.name (a string)',
    });
    await expectStillServing(server);
  });

  it('2025-11-25: wrong argument types are a tool error (isError) naming the field', async () => {
    const text =
      'Invalid arguments for tool add: a: Invalid input: expected number, received string';
    const response = await server.callTool('add', { a: '2', b: 3 });
    expect(response.result).toEqual({ content: [{ type: 'text', text }], isError: true });
    await expectStillServing(server);
  });

  it('2025-06-18: wrong argument types are a -32602 error naming the field', async (test) => {
    const older = fixtureForTest(test);
    expect((await older.initialize('2025-06-18')).result.protocolVersion).toBe('2025-06-18');
    expect(older.revision).toBe('2025-06-18');
    expect((await older.callTool('add', { a: 1, b: false })).error).toEqual({
      code: -32602,
      message:
        'Invalid arguments for tool add: b: Invalid input: expected number, received boolean',
    });
    await expectStillServing(older);
  });
});

describe('stdio: hostile arguments and failing handlers', () => {
  const HOSTILE =
    '{"text":"x","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
  const call = (id: string, tool: string) =>
    `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${tool}","arguments":${HOSTILE}}}`;

  it('drops __proto__ keys from arguments: the call works and no prototype is polluted', async () => {
    server.sendLine(call('proto-zod', 'echo'));
    expect((await server.response('proto-zod')).result).toEqual({
      content: [{ type: 'text', text: 'x' }],
    });
    // A JSON Schema tool is handed the arguments as sent: "__proto__" is gone, the rest is data.
    server.sendLine(call('proto-json', 'inspect_args'));
    const seen = JSON.parse((await server.response('proto-json')).result.content[0].text);
    expect(seen).toEqual({ ownKeys: ['text', 'constructor'], plainPrototype: true });
    const probe = await server.callTool('probe_pollution');
    expect(probe.result).toEqual({ content: [{ type: 'text', text: 'undefined' }] });
  });

  it('drops "__proto__" keys spelled with \\u escapes too', async () => {
    const escaped = HOSTILE.replace('"__proto__"', '"\\u005f_proto__"');
    expect(escaped).toContain('"\\u005f_proto__"');
    server.sendLine(
      `{"jsonrpc":"2.0","id":"proto-escaped","method":"tools/call","params":{"name":"inspect_args","arguments":${escaped}}}`,
    );
    const seen = JSON.parse((await server.response('proto-escaped')).result.content[0].text);
    expect(seen).toEqual({ ownKeys: ['text', 'constructor'], plainPrototype: true });
    const probe = await server.callTool('probe_pollution');
    expect(probe.result).toEqual({ content: [{ type: 'text', text: 'undefined' }] });
  });

  it('turns a thrown Error into isError "kaboom"; the stack goes to stderr only', async () => {
    const response = await server.callTool('boom');
    expect(response.result).toEqual({ content: [{ type: 'text', text: 'kaboom' }], isError: true });
    expect(
      server.lines.filter((l) => l.includes('stdio-fixture-server') || l.includes('    at ')),
    ).toEqual([]);
    await server.stderrContains('tool boom threw');
    expect(server.stderr).toMatch(/Error: kaboom\n\s+at .*stdio-fixture-server\.ts/);
    await expectStillServing(server);
  });

  it('turns a UserError into isError with its message, and logs nothing for it', async () => {
    const response = await server.callTool('user_fail');
    expect(response.result).toEqual({
      content: [{ type: 'text', text: 'bad order id' }],
      isError: true,
    });
    await expectStillServing(server);
    expect(server.stderr).not.toContain('user_fail');
    expect(server.stderr).not.toContain('bad order id');
  });

  it('cancels a hanging call: its signal fires, it is never answered, the next call works', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 'hang-1',
      method: 'tools/call',
      params: { name: 'hang', arguments: {} },
    });
    await server.stderrContains('hang started');
    const params = { requestId: 'hang-1', reason: 'user pressed stop' };
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
    await server.stderrContains('hang aborted: user pressed stop');
    await expectStillServing(server);
    // The handler has returned by now; give a stray answer time to show up before concluding.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.responsesTo('hang-1')).toEqual([]);
    await expectStillServing(server);
  });
});
