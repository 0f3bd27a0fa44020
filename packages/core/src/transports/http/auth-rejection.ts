// Declared below the endpoint so that the parts it wires together (streamable-settings.ts,
// sse-2024.ts) can name a refusal without importing the endpoint.

/** A refusal by authentication or authorisation (see `AuthOutcome`). */
export interface AuthRejection {
  readonly status?: 401 | 403 | 503;
  readonly wwwAuthenticate?: string;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Why, for the server's log (its `logger`, stderr by default), when the operator must act:
   * a 503 because the issuer's keys cannot be fetched is a broken setting, not a bad client.
   * Each distinct line is written at most once per 10 s, so an outage does not flood the log.
   */
  readonly log?: string;
}
