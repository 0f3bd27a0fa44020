// Declared below the endpoint so that the parts it wires together (streamable-settings.ts,
// sse-2024.ts) can name a refusal without importing the endpoint.

/** A refusal by authentication or authorisation (see `AuthOutcome`). */
export interface AuthRejection {
  readonly status?: 401 | 403 | 503;
  readonly wwwAuthenticate?: string;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
}
