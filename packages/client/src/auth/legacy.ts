import type { AuthorizationServerMetadata, ResourceMetadata } from './discovery.js';

// The 2025-03-26 authorization rules, for servers of that revision: they publish no protected
// resource metadata (RFC 9728 arrived in 2025-06-18), so the server's origin is the
// authorization server, found by RFC 8414 metadata there or, when there is none, at the
// default endpoints /authorize, /token and /register. Nothing leaves the server's origin on
// this path, so it cannot aim the client at a third party.

/**
 * The resource of a server without protected resource metadata: its origin (the 2025-03-26
 * "authorization base URL"), which also covers a 2024 HTTP+SSE server's message endpoint.
 */
export function legacyResource(server: URL): ResourceMetadata {
  return { resource: `${server.origin}/`, authorization_servers: [server.origin] };
}

/** The 2025-03-26 default endpoints at the server's origin, used when it serves no metadata. */
export function defaultEndpoints(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    // PKCE S256 is required of every 2025-03-26 authorization server (OAuth 2.1).
    code_challenge_methods_supported: ['S256'],
  };
}
