import {
  findResource,
  readMatch,
  ResourceNotFoundError,
  type ResourceDefinition,
  type TemplateDefinition,
} from '../../registry/index.js';
import { shownTo, visiblePage } from '../list-visibility.js';
import { Context } from '../context.js';
import { limitReached } from '../guards/index.js';
import type { GuardedCall } from '../guards/index.js';
import type { InputRun } from '../input/input-run.js';
import { memberInfo } from '../middleware/index.js';
import { page } from '../pagination.js';
import { featuresOf } from '../eras/revisions.js';
import type { MethodSpec } from '../server-core.js';
import { refused } from '../state-refusal.js';
import { validateUri } from '../uri-guard.js';
import { resourceForRevision } from '../wire-shapes.js';

const NO_LIMITS = Object.freeze({});
const NO_MIDDLEWARE: readonly unknown[] = Object.freeze([]);

export const resourcesList: MethodSpec = {
  async handle(params, record, scope) {
    const { core } = scope;
    const registry = core.registry;
    const features = featuresOf(record.protocolVersion);
    const templateShown = shownTo<TemplateDefinition>(
      core,
      record.auth,
      'template',
      (t) => t.uriTemplate,
    );
    const listed = registry.templates.filter((t) => t.list && (!templateShown || templateShown(t)));
    if (listed.length === 0) {
      const list = {
        name: 'resources',
        kind: 'resource' as const,
        nameOf: (r: { uri: string }) => r.uri,
      };
      return visiblePage(list, () => registry.resources, resourceForRevision, params, record, core);
    }
    // Templates that enumerate their resources make the list dynamic: built per request.
    const ctx = new Context(record, scope);
    const dynamic = await Promise.all(listed.map((t) => t.list!(ctx)));
    const resourceShown = shownTo<ResourceDefinition>(core, record.auth, 'resource', (r) => r.uri);
    const all = [
      ...(resourceShown ? registry.resources.filter(resourceShown) : registry.resources),
      ...dynamic.flat(),
    ];
    const { items, nextCursor } = page(all, params?.cursor, core.pageSize);
    const resources = items.map((r) => resourceForRevision(r, features));
    return nextCursor ? { resources, nextCursor } : { resources };
  },
};

export const templatesList: MethodSpec = {
  handle(params, record, { core }) {
    const list = {
      name: 'resourceTemplates',
      kind: 'template' as const,
      nameOf: (t: { uriTemplate: string }) => t.uriTemplate,
    };
    return visiblePage(
      list,
      () => core.registry.templates,
      resourceForRevision,
      params,
      record,
      core,
    );
  },
};

export const resourcesRead: MethodSpec = {
  handle(params, record, scope) {
    const uri = validateUri(params?.uri);
    const found = findResource(scope.core.registry, uri);
    const limits = found?.member.limits ?? NO_LIMITS;
    const invoke = async (run: InputRun | undefined, outboundMeta?: object) => {
      const call: GuardedCall = {
        kind: 'resource',
        name: uri,
        limits,
        args: found?.variables,
        record,
        scope,
        run,
        deadline: undefined,
        outboundMeta,
      };
      return {
        contents: await scope.core.guards.run(call, () =>
          readMatch(found, uri, new Context(record, scope, call)),
        ),
      };
    };
    const execute = (run?: InputRun) => {
      const pipeline = scope.core.middleware;
      const own = found?.member.middleware ?? NO_MIDDLEWARE;
      if (pipeline.idle && own.length === 0) return invoke(run);
      const member =
        found && memberInfo('uriTemplate' in found.member ? 'template' : 'resource', found.member);
      return pipeline.run(
        pipeline.memberSteps('resources/read', own),
        {
          method: 'resources/read',
          params,
          record,
          scope,
          run,
          member,
          arguments: found?.variables,
        },
        (ctx) => invoke(run, ctx.outboundMeta),
      );
    };
    return scope.core.inputs.call(params, record, execute, scope);
  },
};

/**
 * Only a URI some resource or template serves can be subscribed to (anything else is the
 * revision's resource-not-found error, as for `resources/read`), and a session holds at most
 * `maxSubscriptionsPerSession` of them, the server `maxSubscriptions` in all.
 */
export const resourcesSubscribe: MethodSpec = {
  handle(params, record, scope) {
    const uri = validateUri(params?.uri);
    const { session, core } = scope;
    if (session.subscriptions.has(uri)) return {};
    if (!findResource(core.registry, uri)) throw new ResourceNotFoundError(uri);
    const { limits } = core.guards.state;
    if (session.subscriptions.size >= limits.maxSubscriptionsPerSession) {
      const message = `Too many subscriptions: this session already holds ${session.subscriptions.size} (limits.maxSubscriptionsPerSession); unsubscribe from one, or raise limits.maxSubscriptionsPerSession`;
      throw refused(
        record,
        scope,
        'maxSubscriptionsPerSession',
        limitReached('maxSubscriptionsPerSession', 'client', message),
      );
    }
    if (!core.guards.state.takeSubscription()) {
      const message = `Too many subscriptions: the server holds ${limits.maxSubscriptions} (limits.maxSubscriptions); retry later, or raise limits.maxSubscriptions`;
      throw refused(
        record,
        scope,
        'maxSubscriptions',
        limitReached('maxSubscriptions', 'server', message),
      );
    }
    session.subscriptions.add(uri);
    return {};
  },
};

export const resourcesUnsubscribe: MethodSpec = {
  handle(params, _record, { session, core }) {
    if (session.subscriptions.delete(validateUri(params?.uri)))
      core.guards.state.releaseSubscriptions(1);
    return {};
  },
};
