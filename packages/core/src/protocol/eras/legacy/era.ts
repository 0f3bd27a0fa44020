import { ResourceNotFoundError, ToolExecutionError } from '../../../registry/index.js';
import { MissingCapabilityError } from '../../client-capability.js';
import { ErrorCode } from '../../error-codes.js';
import { mapError, toolErrorResult } from '../../error-mapping.js';
import { lookupMethod, methodTable, SHARED_METHODS } from '../../method-table.js';
import { resourcesSubscribe, resourcesUnsubscribe } from '../../methods/resources.js';
import type { MethodSpec } from '../../server-core.js';
import type { Era } from '../era.js';
import { REQUIRED_CAPABILITIES_META } from '../extension-ids.js';
import { featuresOf } from '../revisions.js';
import { askOnChannel } from './ask.js';
import { initialize, ping, setLevel } from './lifecycle.js';
import {
  LEGACY_TASKS,
  legacyTasksCancel,
  legacyTasksGet,
  legacyTasksList,
  legacyTasksResult,
} from './tasks.js';

/** Every request method a legacy (initialize-era) connection answers; anything else is -32601. */
const METHODS: ReadonlyMap<string, MethodSpec> = methodTable([
  ['initialize', initialize],
  ['ping', ping],
  ['logging/setLevel', setLevel],
  ...SHARED_METHODS,
  ['resources/subscribe', resourcesSubscribe],
  ['resources/unsubscribe', resourcesUnsubscribe],
  ['tasks/get', legacyTasksGet],
  ['tasks/result', legacyTasksResult],
  ['tasks/list', legacyTasksList],
  ['tasks/cancel', legacyTasksCancel],
]);

/**
 * The initialize era (2024-11-05 … 2025-11-25): the handshake fixes the version, capabilities
 * and client for the whole connection or HTTP session, which also holds the log level and the
 * resource subscriptions. The server asks the client with real requests on the live channel and
 * pushes list changes unsolicited; results go out as handlers made them.
 */
export const LEGACY: Era = {
  name: 'legacy',
  stateless: false,
  methods: METHODS,
  admit(request, scope, admitted) {
    admitted?.();
    const method = lookupMethod(METHODS, request);
    return { method, record: scope.session.record(request, !method.beforeInitialize, LEGACY) };
  },
  mapError(error, policy) {
    if (error instanceof ResourceNotFoundError) {
      return {
        code: ErrorCode.ResourceNotFound,
        message: error.message,
        data: { uri: error.uri },
      };
    }
    return mapError(error, policy);
  },
  toolError(error, setting) {
    const result = toolErrorResult(error, setting);
    const cause = error instanceof ToolExecutionError ? error.cause : error;
    // Legacy has no error for a missing client capability, only this isError result: the
    // capability it names rides along, so that a gateway serving a 2026-07-28 client can answer
    // it -32021 as that era asks.
    if (result && cause instanceof MissingCapabilityError)
      result._meta = { ...result._meta, [REQUIRED_CAPABILITIES_META]: cause.required };
    return result;
  },
  asksInRounds: false,
  // A task's questions go through the task (input_required, tagged with it), not the request.
  ask: (asker, scope, method, params, options) =>
    asker.run?.detached
      ? asker.run.ask(method, params, options.key)
      : askOnChannel(asker, scope, method, params, options),
  urlElicitationIds: true,
  logThreshold: (_record, session) => session.logLevel,
  pushesListChanged: (session) => session.handshake !== undefined,
  acceptsBatch(session) {
    const version = session.handshake?.protocolVersion;
    return version !== undefined && featuresOf(version).batching;
  },
  tasks: LEGACY_TASKS,
};
