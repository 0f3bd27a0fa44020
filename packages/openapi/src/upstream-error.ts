/** A refusal on the way to or from the API (timeout, size, redirect, credentials): the message is for the client. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
