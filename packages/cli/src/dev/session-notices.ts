import type { FrameRoute } from '../client/channel-types.js';
import type { ListName } from '../client/lists.js';
import { SUBSCRIPTION_ID, type Message } from './messages.js';
import type { SessionState } from './session-state.js';

/** A message the supervisor itself sends a client, with its route (none: the session stream). */
export type Notice = readonly [Message, FrameRoute | undefined];

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * `notifications/<list>/list_changed` as the session's revision expects them: unsolicited for a
 * legacy session (once initialized), on each listen stream that asked for them (2026-07-28).
 */
export function listChangedNotices(state: SessionState, lists: readonly ListName[]): Notice[] {
  if (state.legacy) {
    return state.initialized ? lists.map((list) => [{ jsonrpc: '2.0', method: `notifications/${list}/list_changed` }, undefined]) : [];
  }
  const notices: Notice[] = [];
  for (const listen of state.listens.values()) {
    const wanted = (listen.params.notifications ?? {}) as Record<string, unknown>;
    for (const list of lists) {
      if (!wanted[`${list}ListChanged`]) continue;
      const params = { _meta: { [SUBSCRIPTION_ID]: listen.clientId } };
      notices.push([{ jsonrpc: '2.0', method: `notifications/${list}/list_changed`, params }, { origin: listen.origin, final: false }]);
    }
  }
  return notices;
}

/**
 * A log message for a legacy session at or above the level it set (2026-07-28 has no log
 * messages outside a request).
 */
export function logNotices(state: SessionState, level: string, data: string): Notice[] {
  if (!state.legacy || !state.initialized) return [];
  if (LEVELS.indexOf(level) < LEVELS.indexOf(state.logLevel ?? 'debug')) return [];
  return [[{ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'mcp-fw dev', data } }, undefined]];
}
