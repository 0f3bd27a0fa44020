export {
  oauthResource,
  type OAuthResourceOptions,
  type OAuthResourceHttpOptions,
} from './resource.js';
export { jwtVerifier, DEFAULT_JWT_ALGORITHMS, type JwtVerifierOptions } from './jwt-verifier.js';
export {
  introspectionVerifier,
  type IntrospectionVerifierOptions,
} from './introspection-verifier.js';
export {
  authInfo,
  InvalidTokenError,
  VerifierUnavailableError,
  type AuthInfo,
  type UpstreamAccess,
  type TokenVerifier,
  type TokenError,
} from './auth-info.js';
export { declaredScopes, listedWithScopes } from './declared-scopes.js';
