import type { JsonRpcId } from '../jsonrpc/index.js';
import { META } from './eras/modern/envelope.js';

/** The lists a server announces changes of, each with `notifications/<list>/list_changed`. */
export const LIST_NAMES = ['tools', 'prompts', 'resources'] as const;
export type ListName = (typeof LIST_NAMES)[number];

/**
 * The `_meta` key that ties a notification on a 2026-07-28 `subscriptions/listen` stream (and
 * the stream's final result) to the listen request: its value is that request's id.
 */
export const SUBSCRIPTION_ID = META.subscriptionId;

/** The key of a listen request's `notifications` filter that opts into one list's changes. */
export const LIST_CHANGED_FILTER_KEYS = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const satisfies Record<ListName, string>;

/**
 * A member that appeared in, or left, a list: what a caller's `listed` filter judges (its kind,
 * name and scopes), so a change is announced only to callers whose lists show that member.
 */
export interface ChangedMember {
  readonly kind: 'tool' | 'prompt' | 'resource' | 'template';
  /** The tool or prompt name, the resource URI or the template's URI template. */
  readonly name: string;
  readonly scopes: readonly string[];
}

/** A JSON-RPC notification, as {@link listChangedNotification} builds it. */
export interface NotificationMessage {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * The notification that `list` changed: bare, as a legacy session receives it unsolicited (once
 * initialized), or tagged with the listen request's id for a 2026-07-28 listen stream.
 *
 * @example
 * ```ts
 * listChangedNotification('tools'); // { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }
 * listChangedNotification('tools', 7).params; // { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } }
 * ```
 */
export function listChangedNotification(
  list: ListName,
  subscriptionId?: JsonRpcId,
): NotificationMessage {
  const method = `notifications/${list}/list_changed`;
  return subscriptionId === undefined
    ? { jsonrpc: '2.0', method }
    : { jsonrpc: '2.0', method, params: { _meta: subscriptionTag(subscriptionId) } };
}

/** The `_meta` that tags a listen stream's notifications and final result. */
export function subscriptionTag(subscriptionId: JsonRpcId): Record<string, JsonRpcId> {
  return { [SUBSCRIPTION_ID]: subscriptionId };
}

/**
 * Whether a listen request's `notifications` filter opted into changes of `list`.
 *
 * @example
 * ```ts
 * wantsListChanged({ toolsListChanged: true }, 'tools'); // true
 * ```
 */
export function wantsListChanged(filter: unknown, list: ListName): boolean {
  return (
    typeof filter === 'object' &&
    filter !== null &&
    Boolean((filter as Record<string, unknown>)[LIST_CHANGED_FILTER_KEYS[list]])
  );
}
