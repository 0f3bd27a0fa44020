import { completionComplete } from './methods/completion.js';
import { initialize, ping, setLevel } from './methods/lifecycle.js';
import { promptsGet, promptsList } from './methods/prompts.js';
import {
  resourcesList,
  resourcesRead,
  resourcesSubscribe,
  resourcesUnsubscribe,
  templatesList,
} from './methods/resources.js';
import { toolsCall, toolsList } from './methods/tools.js';
import { discover } from './modern/discover.js';
import { listen } from './modern/listen.js';
import { aroundMethod } from './middleware/index.js';
import type { MethodSpec } from './server-core.js';

/** Every request method a legacy (initialize-era) connection answers; anything else is -32601. */
export const METHODS: ReadonlyMap<string, MethodSpec> = withMiddleware([
  ['initialize', initialize],
  ['ping', ping],
  ['logging/setLevel', setLevel],
  ['tools/list', toolsList],
  ['tools/call', toolsCall],
  ['resources/list', resourcesList],
  ['resources/templates/list', templatesList],
  ['resources/read', resourcesRead],
  ['resources/subscribe', resourcesSubscribe],
  ['resources/unsubscribe', resourcesUnsubscribe],
  ['prompts/list', promptsList],
  ['prompts/get', promptsGet],
  ['completion/complete', completionComplete],
]);

const REMOVED_IN_MODERN = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/**
 * The 2026-07-28 method table: the same handlers, plus discover and listen, without the
 * methods the revision removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`
 * and `resources/unsubscribe` get -32601).
 */
export const MODERN_METHODS: ReadonlyMap<string, MethodSpec> = new Map([
  ...withMiddleware([
    ['server/discover', discover],
    ['subscriptions/listen', listen],
  ]),
  ...[...METHODS].filter(([name]) => !REMOVED_IN_MODERN.has(name)),
]);

/** Every method with the server's middleware around it (calls run theirs inside; see aroundMethod). */
function withMiddleware(entries: [string, MethodSpec][]): Map<string, MethodSpec> {
  return new Map(entries.map(([name, spec]) => [name, aroundMethod(name, spec)]));
}
