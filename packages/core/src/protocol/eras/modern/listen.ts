import { JsonRpcError } from '../../../jsonrpc/index.js';
import { findResource, type Registry } from '../../../registry/index.js';
import { ErrorCode } from '../../error-codes.js';
import { limitReached, type OverBudget, type StateLimits } from '../../guards/index.js';
import type { HubMember } from '../../hub.js';
import {
  LIST_CHANGED_FILTER_KEYS,
  listChangedNotification,
  subscriptionTag,
} from '../../list-changed.js';
import { seesChange } from '../../list-visibility.js';
import type { MethodSpec } from '../../server-core.js';
import { clientKeyOf, refused } from '../../state-refusal.js';
import { validateUri } from '../../uri-guard.js';
import { followedTaskIds, followTasks } from './tasks-extension.js';

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension: `notifications/tasks` for these tasks. */
  taskIds?: string[];
}

/**
 * `subscriptions/listen`: a long-lived response stream. The acknowledgement comes first, with
 * the subset of the filter this server can honour (resource URIs it serves); then only the
 * opted-in notifications, each tagged with the subscription id (the listen request's id). The
 * client ends it by closing the stream or cancelling; the server by answering the request.
 * Streams and their URIs count against `limits` (see `StateLimits`) while open.
 */
export const listen: MethodSpec = {
  handle(params, record, scope) {
    const { core, engine } = scope;
    const requested = (params?.notifications ?? {}) as Filter;
    const registry = core.registry;
    const budget = core.guards.state;
    const hasResources = registry.resources.length > 0 || registry.templates.length > 0;
    const honoured: Filter = {};
    // Every server declares all three lists (capabilities.ts): one that is empty now still
    // changes when members are added or mounted later, so each is honoured as asked.
    if (requested.toolsListChanged) honoured.toolsListChanged = true;
    if (requested.promptsListChanged) honoured.promptsListChanged = true;
    if (requested.resourcesListChanged) honoured.resourcesListChanged = true;
    if (Array.isArray(requested.resourceSubscriptions) && hasResources) {
      const asked = requested.resourceSubscriptions;
      const max = budget.limits.maxSubscriptionsPerStream;
      if (asked.length > max) {
        const message = `Invalid params: notifications.resourceSubscriptions lists ${asked.length} URIs; a listen stream may subscribe to at most ${max} (limits.maxSubscriptionsPerStream); spread them over several streams, or raise limits.maxSubscriptionsPerStream`;
        throw refused(
          record,
          scope,
          'maxSubscriptionsPerStream',
          new JsonRpcError(ErrorCode.InvalidParams, message, {
            limit: 'maxSubscriptionsPerStream',
          }),
        );
      }
      honoured.resourceSubscriptions = [...new Set(asked.filter((uri) => served(registry, uri)))];
    }
    // Following tasks reads their records (the shared store's); without, the stream opens at
    // once, so events raised right after the request are heard.
    const following = followedTaskIds(
      requested.taskIds,
      record,
      scope,
      budget.limits.maxSubscriptionsPerStream,
    );
    return following ? following.then(open) : open(undefined);

    function open(taskIds: string[] | undefined): Promise<unknown> {
      if (taskIds) honoured.taskIds = taskIds;
      const uris = new Set(honoured.resourceSubscriptions ?? []);
      const client = clientKeyOf(record, scope);
      const over = budget.openStream(client, uris.size);
      if (over)
        throw refused(
          record,
          scope,
          over.limit,
          limitReached(over.limit, over.scope, overMessage(over, budget.limits)),
        );
      const request = record.request;
      const tag = subscriptionTag(request.id);
      engine.notify(
        'notifications/subscriptions/acknowledged',
        { notifications: honoured, _meta: tag },
        request,
      );
      const member: HubMember = {
        listChanged(list, changes) {
          if (!honoured[LIST_CHANGED_FILTER_KEYS[list]]) return;
          // Only changes of members this caller's lists show (its token's scopes, `listed`).
          if (!seesChange(core, record.auth, changes)) return;
          const { method, params } = listChangedNotification(list, request.id);
          engine.notify(method, params, request);
        },
        resourceUpdated(uri) {
          if (uris.has(uri))
            engine.notify('notifications/resources/updated', { uri, _meta: tag }, request);
        },
        taskChanged:
          taskIds && taskIds.length > 0
            ? followTasks(record, scope, taskIds, (task) =>
                engine.notify('notifications/tasks', { ...task, _meta: tag }, request),
              )
            : undefined,
      };
      core.hub.add(member);
      return new Promise((resolve) => {
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          core.hub.delete(member);
          budget.closeStream(client, uris.size);
          off();
          resolve({ _meta: tag });
        };
        const off = core.hub.onShutdown(end);
        request.signal.addEventListener('abort', end, { once: true });
        if (request.signal.aborted) end();
      });
    }
  },
};

/** A URI worth holding: well-formed and served by a resource or template now. */
function served(registry: Registry, uri: unknown): uri is string {
  try {
    return findResource(registry, validateUri(uri)) !== undefined;
  } catch {
    return false;
  }
}

function overMessage(over: OverBudget, limits: Required<StateLimits>): string {
  switch (over.limit) {
    case 'maxListenStreamsPerClient':
      return `Too many listen streams: this client already has ${limits.maxListenStreamsPerClient} open (limits.maxListenStreamsPerClient); close one, or raise limits.maxListenStreamsPerClient`;
    case 'maxListenStreams':
      return `Too many listen streams: the server has ${limits.maxListenStreams} open (limits.maxListenStreams); retry later, or raise limits.maxListenStreams`;
    case 'maxSubscriptions':
      return `Too many subscriptions: the server holds up to ${limits.maxSubscriptions} resource subscriptions (limits.maxSubscriptions); retry later, or raise limits.maxSubscriptions`;
  }
}
