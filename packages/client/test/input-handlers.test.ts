import { connect, type InputHandlers, type InputInfo } from '@mcp-fw/client';
import { describe, expect, it } from 'vitest';
import { fixtureServer } from './support/fixture-server.ts';
import { scriptedServer } from './support/scripted-server.ts';

// One handler each for elicitation, sampling and roots, serving the legacy server→client
// requests and the 2026-07-28 input_required rounds alike.

function recordingHandlers(eras: string[]): InputHandlers {
  const note = (info: InputInfo) => void eras.push(info.era);
  return {
    elicitation: (request, info) => {
      note(info);
      return request.message === 'Your name?'
        ? { action: 'accept', content: { name: 'Ada' } }
        : { action: 'decline' };
    },
    sampling: (_request, info) => {
      note(info);
      return { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'test-model' };
    },
    roots: (info) => {
      note(info);
      return [{ uri: 'file:///work', name: 'work' }];
    },
  };
}

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'modern'],
])('input handlers under %s', (protocolVersion, era) => {
  it('one elicitation handler answers the server, with the schema’s defaults filled in', async () => {
    const eras: string[] = [];
    const client = await connect(fixtureServer(), {
      protocolVersion,
      handlers: recordingHandlers(eras),
    });
    const result = await client.callTool('greet', {});
    expect(result.content[0].text).toBe('Hello Dr Ada');
    expect(eras).toEqual([era]);
    await client.close();
  });

  it('one sampling handler and one roots handler answer the server', async () => {
    const eras: string[] = [];
    const client = await connect(fixtureServer(), {
      protocolVersion,
      handlers: recordingHandlers(eras),
    });
    const result = await client.callTool('ponder', {});
    expect(result.content[0].text).toBe('Hi / file:///work');
    expect(eras).toEqual([era, era]);
    await client.close();
  });

  it('handlers declare their capabilities; without them the server is told the client cannot', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    if (era === 'legacy') {
      const result = await client.callTool('greet', {});
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/needs the client capability "elicitation"/);
    } else {
      // 2026-07-28: -32021 MissingRequiredClientCapability, before the handler runs.
      await expect(client.callTool('greet', {})).rejects.toMatchObject({
        code: -32021,
        message: expect.stringContaining('"elicitation"'),
      });
    }
    await client.close();
  });
});

describe('2026-07-28 input rounds', () => {
  it('echoes requestState byte for byte, sends a new id per round, and only that round’s answers', async () => {
    const calls: Record<string, unknown>[] = [];
    const server = scriptedServer({
      'server/discover': () => ({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }),
      'tools/list': () => ({ tools: [{ name: 'wizard', inputSchema: { type: 'object' } }] }),
      'tools/call': (params) => {
        calls.push(params);
        const state = params.requestState;
        const answered = params.inputResponses as Record<string, unknown> | undefined;
        if (answered?.step2)
          return { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
        if (state === undefined)
          return {
            resultType: 'input_required',
            inputRequests: {
              step1: {
                method: 'elicitation/create',
                params: { message: 'One?', requestedSchema: { type: 'object' } },
              },
            },
            requestState: ' {"step": 1} ',
          };
        if (state === ' {"step": 1} ')
          return {
            resultType: 'input_required',
            inputRequests: { step2: { method: 'roots/list', params: {} } },
          };
        throw new Error(`unexpected round: ${JSON.stringify(params)}`);
      },
    });
    const client = await connect(server, {
      handlers: {
        elicitation: () => ({ action: 'accept', content: { one: 1 } }),
        roots: () => [{ uri: 'file:///r' }],
      },
    });
    const result = await client.callTool('wizard', { x: 1 });
    expect(result.content[0].text).toBe('done');
    expect(calls.map((c) => [c.requestState, c.inputResponses, c.arguments])).toEqual([
      [undefined, undefined, { x: 1 }],
      [' {"step": 1} ', { step1: { action: 'accept', content: { one: 1 } } }, { x: 1 }],
      [undefined, { step2: { roots: [{ uri: 'file:///r' }] } }, { x: 1 }],
    ]);
    await client.close();
  });

  it('a server that keeps asking is stopped after maxInputRounds, with an error naming the call', async () => {
    const server = scriptedServer({
      'server/discover': () => ({ supportedVersions: ['2026-07-28'], capabilities: {} }),
      'tools/call': () => ({ resultType: 'input_required', requestState: 'again' }),
    });
    const client = await connect(server, { maxInputRounds: 3, validateOutput: false });
    await expect(client.callTool('loop', {})).rejects.toThrow(
      'tools/call "loop": the server still asked for input after 3 rounds (maxInputRounds)',
    );
    await client.close();
  });
});
