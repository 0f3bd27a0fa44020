import { initialize, ping } from './methods/lifecycle.js';
import { toolsCall, toolsList } from './methods/tools.js';
import type { MethodSpec } from './server-core.js';

/** Every request method the server answers; anything else is -32601. */
export const METHODS: ReadonlyMap<string, MethodSpec> = new Map([
  ['initialize', initialize],
  ['ping', ping],
  ['tools/list', toolsList],
  ['tools/call', toolsCall],
]);
