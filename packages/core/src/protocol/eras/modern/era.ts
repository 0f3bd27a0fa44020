import { ResourceNotFoundError, ToolExecutionError } from '../../../registry/index.js';
import { ClientCapabilityError, MissingCapabilityError } from '../../client-capability.js';
import { ErrorCode } from '../../error-codes.js';
import { mapError, toolErrorResult } from '../../error-mapping.js';
import { lookupMethod, methodTable, SHARED_METHODS } from '../../method-table.js';
import type { MethodSpec } from '../../server-core.js';
import type { Era } from '../era.js';
import { modernRecord } from './admission.js';
import { EnvelopeMemo } from './envelope-memo.js';
import { discover } from './discover.js';
import { listen } from './listen.js';
import { modernResult } from './result-envelope.js';
import { MODERN_TASKS, tasksCancel, tasksGet, tasksUpdate } from './tasks-extension.js';

/**
 * The 2026-07-28 method table: the shared handlers plus discover and listen. The methods the
 * revision removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe` and
 * `resources/unsubscribe`) are absent, so they get -32601.
 */
const METHODS: ReadonlyMap<string, MethodSpec> = methodTable([
  ['server/discover', discover],
  ['subscriptions/listen', listen],
  ['tasks/get', tasksGet],
  ['tasks/update', tasksUpdate],
  ['tasks/cancel', tasksCancel],
  ...SHARED_METHODS,
]);

// Without a logLevel in its envelope a request gets no log messages at all (protocol.md §2.1).
const SILENT = 'silent';

/** The capability a failure says the client lacks, when that is what it is. */
function missingCapability(error: unknown): MissingCapabilityError | undefined {
  const cause = error instanceof ToolExecutionError ? error.cause : error;
  return cause instanceof MissingCapabilityError ? cause : undefined;
}

/**
 * The stateless era (2026-07-28): every request carries its version, capabilities, client and
 * log level in its `_meta` envelope, and nothing carries over. The server asks the client with
 * `input_required` results (input rounds), sends list changes only on listen streams, and every
 * result carries `resultType` and the server's identity.
 */
export const MODERN: Era = {
  name: 'modern',
  stateless: true,
  methods: METHODS,
  admit(request, _scope, admitted) {
    const record = modernRecord(request, MODERN);
    admitted?.();
    return { record, method: lookupMethod(METHODS, request) };
  },
  frameParser() {
    const memo = new EnvelopeMemo();
    return (text) => memo.parse(text);
  },
  encodeResult: modernResult,
  mapError(error, policy) {
    // Not-found is -32602 here (-32002 is forbidden), and a missing capability is -32021.
    if (error instanceof ResourceNotFoundError)
      return { code: ErrorCode.InvalidParams, message: error.message, data: { uri: error.uri } };
    const missing = missingCapability(error);
    if (missing) {
      return {
        code: ErrorCode.MissingRequiredClientCapability,
        message: missing.message,
        data: { requiredCapabilities: missing.required },
      };
    }
    return mapError(error, policy);
  },
  // A missing capability is told on the JSON-RPC level (-32021), not as an isError result.
  toolError: (error, setting) =>
    missingCapability(error) && error instanceof ToolExecutionError
      ? undefined
      : toolErrorResult(error, setting),
  asksInRounds: true,
  async ask(asker, _scope, method, params, options) {
    if (!asker.run)
      throw new ClientCapabilityError(
        `${method}: under 2026-07-28 only tools/call, prompts/get and resources/read may ask the client for input`,
      );
    return asker.run.ask(method, params, options.key, options.acceptUnasked);
  },
  urlElicitationIds: false,
  logThreshold: (record) => record.logLevel ?? SILENT,
  pushesListChanged: () => false,
  acceptsBatch: () => false,
  tasks: MODERN_TASKS,
};
