import { listChangedNotification, SUBSCRIPTION_ID } from '@mcp-fw/core/transport';
import { describe, expect, it } from 'vitest';
import { listChangedNotices, logNotices } from '../src/dev/session-notices.ts';
import { SessionState } from '../src/dev/session-state.ts';

// What `mcp-fw dev` tells a client itself (reload failures, list changes) follows core's rules,
// imported from @mcp-fw/core/transport rather than copied.

function legacySession(level?: string): SessionState {
  const state = new SessionState();
  state.observeRequest('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  });
  state.observeNotification('notifications/initialized');
  if (level !== undefined) state.observeRequest('logging/setLevel', { level });
  return state;
}

describe('mcp-fw dev session notices', () => {
  it('sends its own log messages at or above the level the client set, by core’s ordering', () => {
    const state = legacySession('warning');
    expect(logNotices(state, 'info', 'x')).toEqual([]);
    expect(logNotices(state, 'error', 'reload failed')).toEqual([
      [
        {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'error', logger: 'mcp-fw dev', data: 'reload failed' },
        },
        undefined,
      ],
    ]);
    expect(logNotices(legacySession(), 'debug', 'x')).toHaveLength(1);
  });

  it('ignores a log level the server refuses: it neither filters nor is replayed into the next child', () => {
    const state = legacySession('error');
    state.observeRequest('logging/setLevel', { level: 'loud' });
    expect(state.logLevel).toBe('error');
    expect(logNotices(state, 'warning', 'x')).toEqual([]);
    expect(state.replaySteps().filter((step) => step.method === 'logging/setLevel')).toEqual([
      { kind: 'request', method: 'logging/setLevel', params: { level: 'error' } },
    ]);
  });

  it('announces list changes as core does: bare once a legacy session is initialized, tagged on the listen streams that asked', () => {
    const early = new SessionState();
    early.observeRequest('initialize', {});
    expect(listChangedNotices(early, ['tools'])).toEqual([]);
    expect(listChangedNotices(legacySession(), ['tools', 'prompts'])).toEqual([
      [listChangedNotification('tools'), undefined],
      [listChangedNotification('prompts'), undefined],
    ]);

    const modern = new SessionState();
    modern.listens.set('"a"', {
      clientId: 'a',
      params: { notifications: { toolsListChanged: true } },
      origin: 'stream-a',
    });
    modern.listens.set('7', {
      clientId: 7,
      params: { notifications: { promptsListChanged: true, toolsListChanged: true } },
      origin: 'stream-7',
    });
    expect(listChangedNotices(modern, ['tools', 'prompts', 'resources'])).toEqual([
      [
        {
          jsonrpc: '2.0',
          method: 'notifications/tools/list_changed',
          params: { _meta: { [SUBSCRIPTION_ID]: 'a' } },
        },
        { origin: 'stream-a', final: false },
      ],
      [
        {
          jsonrpc: '2.0',
          method: 'notifications/tools/list_changed',
          params: { _meta: { [SUBSCRIPTION_ID]: 7 } },
        },
        { origin: 'stream-7', final: false },
      ],
      [
        {
          jsonrpc: '2.0',
          method: 'notifications/prompts/list_changed',
          params: { _meta: { [SUBSCRIPTION_ID]: 7 } },
        },
        { origin: 'stream-7', final: false },
      ],
    ]);
  });
});
