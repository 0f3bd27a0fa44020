export {
  authorizationServer,
  type AuthorizationServer,
} from './authorization-server.js';
export type { AuthorizationServerOptions } from './context.js';
export type { PreRegisteredClient, ClientMetadataDocumentOptions } from './clients.js';
export { MemoryAuthorizationStore, type AuthorizationStore } from './store.js';
export type { UpstreamAccess } from '../auth-info.js';
export {
  oidcUpstream,
  upstreams,
  type UpstreamProvider,
  type UpstreamCredentials,
} from './upstream.js';
