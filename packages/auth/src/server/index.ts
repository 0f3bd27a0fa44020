export {
  authorizationServer,
  type AuthorizationServer,
} from './authorization-server.js';
export type { AuthorizationServerOptions, TrustedIdentityProvider } from './context.js';
export type { PreRegisteredClient, ClientMetadataDocumentOptions, GrantType } from './clients.js';
export type { AuthorizationRateLimits, Budget } from './rate-limits.js';
export { MemoryAuthorizationStore, type AuthorizationStore } from './store.js';
export type { UpstreamAccess } from '../auth-info.js';
export {
  oidcUpstream,
  upstreams,
  type UpstreamProvider,
  type UpstreamCredentials,
} from './upstream.js';
