// @mcp-fw/client/node: what only Node can do for OAuth (a file token store, a loopback redirect
// listener that opens the browser). The main entry stays runtime-neutral.
export { FileTokenStore } from './auth/node/file-store.js';
export {
  type LoopbackOptions,
  type LoopbackRedirect,
  loopbackRedirect,
} from './auth/node/loopback.js';
