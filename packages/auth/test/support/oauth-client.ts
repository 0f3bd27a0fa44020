import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * An in-memory OAuth client for the official clients (the SDK 1.x provider interface, which the
 * 2.x client shares): a pre-registered public client using PKCE; `redirectToAuthorization`
 * only records where a browser would be sent.
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  tokenSet?: OAuthTokens;
  verifier?: string;
  lastAuthorizationUrl?: URL;
  readonly authorizations: URL[] = [];

  #registered?: OAuthClientInformationMixed;

  constructor(
    /** A pre-registered client id; undefined: the client registers itself (RFC 7591). */
    private readonly clientId: string | undefined,
    readonly redirectUri: string,
    /** Forget refresh tokens (a client that never keeps them). */
    private readonly keepRefreshTokens = true,
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'oauth-flow-test',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.clientId === undefined ? this.#registered : { client_id: this.clientId };
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#registered = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.tokenSet;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.tokenSet = this.keepRefreshTokens ? tokens : { ...tokens, refresh_token: undefined };
  }

  redirectToAuthorization(url: URL): void {
    this.lastAuthorizationUrl = url;
    this.authorizations.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier saved');
    return this.verifier;
  }
}
