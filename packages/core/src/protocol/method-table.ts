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
import type { MethodSpec } from './server-core.js';

/** Every request method the server answers; anything else is -32601. */
export const METHODS: ReadonlyMap<string, MethodSpec> = new Map([
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
