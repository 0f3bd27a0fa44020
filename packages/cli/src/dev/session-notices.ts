import {
  listChangedNotification,
  logLevelPasses,
  subscriptionTag,
  wantsListChanged,
  type FrameRoute,
  type ListName,
  type LogLevel,
  type NotificationMessage,
} from '@mcp-fw/core/transport';
import type { SessionState } from './session-state.js';

/** A message the supervisor itself sends a client, with its route (none: the session stream). */
export type Notice = readonly [NotificationMessage, FrameRoute | undefined];

/**
 * `notifications/<list>/list_changed` as the session's revision expects them: unsolicited for a
 * legacy session (once initialized), on each listen stream that asked for them (2026-07-28).
 * The listen request's own filter decides, not what the first child honoured: a reload may add
 * the first prompt or resource.
 */
export function listChangedNotices(state: SessionState, lists: readonly ListName[]): Notice[] {
  if (state.legacy)
    return state.initialized ? lists.map((list) => [listChangedNotification(list), undefined]) : [];
  const notices: Notice[] = [];
  for (const listen of state.listens.values()) {
    for (const list of lists) {
      if (!wantsListChanged(listen.params.notifications, list)) continue;
      notices.push([
        listChangedNotification(list, listen.clientId),
        { origin: listen.origin, final: false },
      ]);
    }
  }
  return notices;
}

/**
 * `notifications/resources/updated` for each of `uris` the client follows: a legacy session's
 * `resources/subscribe`, a listen stream's `resourceSubscriptions` (2026-07-28).
 */
export function resourceUpdatedNotices(state: SessionState, uris: readonly string[]): Notice[] {
  if (state.legacy) {
    if (!state.initialized) return [];
    return uris
      .filter((uri) => state.subscribed(uri))
      .map((uri) => [
        { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } },
        undefined,
      ]);
  }
  const notices: Notice[] = [];
  for (const listen of state.listens.values()) {
    const filter = listen.params.notifications as { resourceSubscriptions?: unknown } | undefined;
    const followed = Array.isArray(filter?.resourceSubscriptions)
      ? filter.resourceSubscriptions
      : [];
    for (const uri of uris) {
      if (!followed.includes(uri)) continue;
      notices.push([
        {
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri, _meta: subscriptionTag(listen.clientId) },
        },
        { origin: listen.origin, final: false },
      ]);
    }
  }
  return notices;
}

/**
 * A log message for a legacy session at or above the level it set (2026-07-28 has no log
 * messages outside a request).
 */
export function logNotices(state: SessionState, level: LogLevel, data: string): Notice[] {
  if (!state.legacy || !state.initialized || !logLevelPasses(level, state.logLevel)) return [];
  return [
    [
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, logger: 'mcp-fw dev', data },
      },
      undefined,
    ],
  ];
}
