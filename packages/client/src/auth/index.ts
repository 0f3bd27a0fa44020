// OAuth for HTTP targets; runtime-neutral (fetch and Web Crypto only; jose loaded on demand for
// private_key_jwt). The Node-only pieces (file store, loopback redirect) are in ../node.ts.
export { AuthorizationError, type AuthorizationFailure } from './errors.js';
export type { EnterpriseIdentity } from './enterprise.js';
export {
  clientCredentials,
  enterpriseManaged,
  OAuth,
  oauth,
  type OAuthOptions,
  workloadIdentity,
} from './oauth.js';
export type { ClientIdentity } from './registration.js';
export {
  MemoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';
export type { AuthorizationServerMetadata, ResourceMetadata } from './discovery.js';
