import type { HubMember, ListName } from '../hub.js';
import type { MethodSpec } from '../server-core.js';
import { META } from './envelope.js';

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const LIST_KEYS: Record<ListName, keyof Filter> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/**
 * `subscriptions/listen`: a long-lived response stream. The acknowledgement comes first, with
 * the subset of the filter this server can honour; then only the opted-in notifications, each
 * tagged with the subscription id (the listen request's id). The client ends it by closing the
 * stream or cancelling; the server by answering the request.
 */
export const listen: MethodSpec = {
  handle(params, record, { core, engine }) {
    const requested = (params?.notifications ?? {}) as Filter;
    const registry = core.registry;
    const hasResources = registry.resources.length > 0 || registry.templates.length > 0;
    const honoured: Filter = {};
    if (requested.toolsListChanged && registry.tools.length > 0) honoured.toolsListChanged = true;
    if (requested.promptsListChanged && registry.prompts.length > 0) honoured.promptsListChanged = true;
    if (requested.resourcesListChanged && hasResources) honoured.resourcesListChanged = true;
    if (Array.isArray(requested.resourceSubscriptions) && hasResources) {
      honoured.resourceSubscriptions = requested.resourceSubscriptions.filter((u) => typeof u === 'string');
    }
    const request = record.request;
    const tag = { [META.subscriptionId]: request.id };
    engine.notify('notifications/subscriptions/acknowledged', { notifications: honoured, _meta: tag }, request);
    const uris = new Set(honoured.resourceSubscriptions ?? []);
    const member: HubMember = {
      listChanged(list) {
        if (honoured[LIST_KEYS[list]]) engine.notify(`notifications/${list}/list_changed`, { _meta: tag }, request);
      },
      resourceUpdated(uri) {
        if (uris.has(uri)) engine.notify('notifications/resources/updated', { uri, _meta: tag }, request);
      },
    };
    core.hub.add(member);
    return new Promise((resolve) => {
      const end = () => {
        core.hub.delete(member);
        off();
        resolve({ _meta: tag });
      };
      const off = core.hub.onShutdown(end);
      request.signal.addEventListener('abort', end, { once: true });
    });
  },
};
