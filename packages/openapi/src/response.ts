import type { UpstreamResponse } from './request.js';

const EXCERPT_CHARS = 500;

/** Whether an answer of this content type is read as text (JSON, XML, forms and `text/*`). */
export function isText(contentType: string): boolean {
  return /^text\/|json|xml|yaml|javascript|x-www-form-urlencoded/i.test(contentType);
}

/** `GET /pets failed: HTTP 404 from <url>: <the first 500 characters of the body>`. */
export function failure(response: UpstreamResponse, method: string, path: string): string {
  const text =
    isText(response.contentType) || response.contentType === ''
      ? new TextDecoder().decode(response.body)
      : `(${response.body.byteLength} bytes of ${response.contentType})`;
  return `${method.toUpperCase()} ${path} failed: HTTP ${response.status} from ${response.url}${text ? `: ${excerpt(text)}` : ''}`;
}

/** At most 500 characters of an answer, for messages. */
export function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}
